// Session files on disk: QFile in, QSaveFile out; every failure is an Error naming the file.
#include "document/sessionfile.h"

#include "document/kernelfile.h"

#include <QFileInfo>

#include <QFile>
#include <QSaveFile>

namespace warpscope::app {

namespace {

Error ioError(const QString& path, const QString& message) {
    return Error{ErrorCode::Io, message.toStdString(), 0, path.toStdString()};
}

} // namespace

Result<Session> readSessionFile(const QString& path, bool* wasKernelFile) {
    if (wasKernelFile != nullptr) {
        *wasKernelFile = false;
    }
    // The one opener: a FIFO, a device or a directory is refused without blocking, and at most
    // the size cap is read (the autosave file comes through here too).
    auto text = readTextFile(QFile::encodeName(path).toStdString());
    if (!text) {
        return text.error();
    }
    const std::string& bytes = text.value();
    auto session = sessionFromJsonText(bytes);
    if (!session && looksLikeKernelFile(bytes)) {
        // The CLI's own kernel file (analyze-kernel's): opened as a session of that kernel.
        auto kernel = kernelFromJsonText(bytes);
        if (kernel) {
            session = sessionFromKernel(kernel.value(), QFileInfo(path).completeBaseName());
            if (wasKernelFile != nullptr) {
                *wasKernelFile = session.ok();
            }
        } else {
            session = kernel.error();
        }
    }
    if (!session) {
        Error error = session.error();
        error.where = path.toStdString() + (error.where.empty() ? "" : ": " + error.where);
        return error;
    }
    return session;
}

std::optional<Error> writeSessionFile(const QString& path, const Session& session) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return ioError(path, QStringLiteral("cannot write: ") + file.errorString());
    }
    const std::string text = sessionToJsonText(session);
    if (file.write(text.data(), static_cast<qint64>(text.size())) !=
        static_cast<qint64>(text.size())) {
        const QString message = file.errorString();
        file.cancelWriting();
        return ioError(path, QStringLiteral("cannot write: ") + message);
    }
    if (!file.commit()) {
        return ioError(path, QStringLiteral("cannot save: ") + file.errorString());
    }
    return std::nullopt;
}

} // namespace warpscope::app
