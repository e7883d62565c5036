// Kernel files: read through the core's kernel reader, written with the core's writer.
#include "document/kernelfile.h"

#include <QSaveFile>

namespace warpscope::app {

bool looksLikeKernelFile(std::string_view text) {
    // Only a hint for which reader's error to report: both readers check the whole file.
    const bool kernelFormat = text.find("\"warpscope-kernel\"") != std::string_view::npos;
    const bool sessionFormat = text.find("\"warpscope-session\"") != std::string_view::npos;
    const bool accesses = text.find("\"accesses\"") != std::string_view::npos;
    return kernelFormat || (!sessionFormat && accesses);
}

Result<Session> sessionFromKernel(const Kernel& kernel, const QString& fallbackTitle) {
    auto pattern = patternFromKernel(kernel, 0);
    if (!pattern) {
        return pattern.error();
    }
    const std::string title = kernel.name.empty() ? fallbackTitle.toStdString() : kernel.name;
    Session session;
    session.entries.push_back(SessionEntry{NamedPattern(title, "", pattern.value(), kernel), {}});
    return session;
}

std::optional<Error> writeKernelFile(const QString& path, const Kernel& kernel) {
    const std::string text = kernelToJsonText(kernel); // the file form, with its format
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Error{ErrorCode::Io, "cannot write: " + file.errorString().toStdString(), 0,
                     path.toStdString()};
    }
    if (file.write(text.data(), static_cast<qint64>(text.size())) !=
        static_cast<qint64>(text.size())) {
        const std::string message = file.errorString().toStdString();
        file.cancelWriting();
        return Error{ErrorCode::Io, "cannot write: " + message, 0, path.toStdString()};
    }
    if (!file.commit()) {
        return Error{ErrorCode::Io, "cannot save: " + file.errorString().toStdString(), 0,
                     path.toStdString()};
    }
    return std::nullopt;
}

} // namespace warpscope::app
