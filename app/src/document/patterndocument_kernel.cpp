// PatternDocument's kernels: the selected access, edits of the whole kernel (buffers, launch, the
// access list) and how an edit of the selected access's pattern folds back into its kernel. Every
// edit is one PatternEditCommand holding the entry before and after, so undo covers all of them.
#include "document/patterndocument.h"

#include "document/patterneditcommand.h"

#include <warpscope/expression.h>

#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace warpscope::app {

namespace {

constexpr std::size_t kMaxAccesses = 64; // the core's limit (resolveKernel)
constexpr std::size_t kMaxBuffers = 64;

std::array<std::string, 3> dimTexts(const Dim3& dim) {
    return {std::to_string(dim.x), std::to_string(dim.y), std::to_string(dim.z)};
}

bool nameTaken(const Kernel& kernel, const std::string& name, int exceptBuffer) {
    for (const Parameter& p : kernel.parameters) {
        if (p.name == name) {
            return true;
        }
    }
    for (std::size_t i = 0; i < kernel.buffers.size(); ++i) {
        if (static_cast<int>(i) != exceptBuffer && kernel.buffers[i].name == name) {
            return true;
        }
    }
    return false;
}

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

/// Insert `access` after access `index` (at the end when `index` is out of range); returns
/// where it went.
int insertAccessAfter(Kernel& kernel, int index, KernelAccess access) {
    const int count = static_cast<int>(kernel.accesses.size());
    const int at = index < 0 || index >= count ? count : index + 1;
    kernel.accesses.insert(kernel.accesses.begin() + at, std::move(access));
    return at;
}

/// A title as a kernel name the core accepts (isValidKernelName: it reaches generated CUDA
/// source): "Misaligned read, offset 11" -> "Misaligned read offset 11"; other characters are
/// dropped, the length cut to the limit.
std::string kernelNameFromTitle(const std::string& title) {
    std::string name;
    for (const char c : title) {
        const bool word =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        const bool joiner = c == '.' || c == '+' || c == '-' || c == ' ';
        if (word || (joiner && !name.empty() && !(c == ' ' && name.back() == ' '))) {
            name += c;
        }
        if (name.size() == kMaxKernelNameLength) {
            break;
        }
    }
    while (!name.empty() && name.back() == ' ') {
        name.pop_back();
    }
    return isValidKernelName(name) ? name : std::string();
}

} // namespace

int accessUsingBuffer(const Kernel& kernel, int buffer) {
    if (buffer < 0 || buffer >= static_cast<int>(kernel.buffers.size())) {
        return -1;
    }
    const std::string& name = kernel.buffers[static_cast<std::size_t>(buffer)].name;
    for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
        if ((kernel.accesses[i].kind.space == MemorySpace::Global ||
             kernel.accesses[i].kind.space == MemorySpace::Constant ||
             kernel.accesses[i].kind.space == MemorySpace::Texture) &&
            kernel.accesses[i].buffer == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int PatternDocument::accessCount() const {
    return kernel() ? static_cast<int>(kernel()->accesses.size()) : 1;
}

QString PatternDocument::shownTitle() const {
    QString title = QString::fromStdString(current().title);
    if (const auto& k = kernel()) {
        const std::string& label = k->accesses[static_cast<std::size_t>(m_selectedAccess)].label;
        if (!label.empty()) {
            title += (title.isEmpty() ? QString() : QStringLiteral(": ")) +
                     QString::fromStdString(label);
        }
    }
    return title;
}

Pattern PatternDocument::accessPattern(const Kernel& kernel, int access, const Pattern& where) {
    const KernelAccess& a = kernel.accesses[static_cast<std::size_t>(access)];
    Pattern pattern;
    if (auto derived = patternFromKernel(kernel, access)) {
        pattern = std::move(derived).value();
    } else {
        // The kernel does not resolve (its error is shown): the access as written, in the
        // launch the views showed last.
        pattern.kind = a.kind;
        PatternSource source = where.source ? *where.source : PatternSource{};
        source.addressExpression = a.addressExpression;
        source.activeExpression = a.activeExpression;
        source.sharedAddressExpression = a.sharedAddressExpression;
        source.parameters = kernel.parameters;
        pattern.source = std::move(source);
        return pattern;
    }
    if (where.source) {
        // The same block and warp as before, kept inside the (maybe new) launch.
        PatternSource& source = *pattern.source;
        const Dim3& grid = source.gridDim;
        source.blockIdx.x = std::clamp<std::int64_t>(where.source->blockIdx.x, 0, grid.x - 1);
        source.blockIdx.y = std::clamp<std::int64_t>(where.source->blockIdx.y, 0, grid.y - 1);
        source.blockIdx.z = std::clamp<std::int64_t>(where.source->blockIdx.z, 0, grid.z - 1);
        const std::int64_t warps = (source.blockDim.count() + kWarpSize - 1) / kWarpSize;
        source.warpIndex = std::clamp<std::int64_t>(where.source->warpIndex, 0,
                                                    std::max<std::int64_t>(0, warps - 1));
    }
    return pattern;
}

NamedPattern PatternDocument::foldIntoKernel(const Pattern& pattern) const {
    NamedPattern after = current();
    if (!pattern.source || !after.kernel || after.kernel->accesses.empty()) {
        // Explicit lane addresses (typed in the lane table) are no kernel's access: the entry
        // becomes that plain pattern; undo gives the kernel back.
        after.pattern = pattern;
        after.kernel.reset();
        return after;
    }
    Kernel& kernel = *after.kernel;
    const int index = std::clamp(m_selectedAccess, 0, static_cast<int>(kernel.accesses.size()) - 1);
    KernelAccess& access = kernel.accesses[static_cast<std::size_t>(index)];
    const PatternSource& source = *pattern.source;
    access.kind = pattern.kind;
    if (access.kind.space != MemorySpace::Global) {
        access.kind.cache = CachePath::Default; // only global loads have a cache operator
    }
    if (access.kind.space != MemorySpace::Texture) {
        access.textureRowBytes.clear();
    }
    if (access.kind.space == MemorySpace::Shared || access.kind.space == MemorySpace::Local) {
        access.buffer.clear();
    } else if (access.buffer.empty()) {
        if (kernel.buffers.empty()) {
            kernel.buffers.push_back(KernelBuffer{"data", std::to_string(kMaxBufferBytes)});
        }
        access.buffer = kernel.buffers.front().name;
    }
    if (access.kind.space == MemorySpace::Texture && access.textureRowBytes.empty()) {
        access.textureRowBytes = "32"; // a texture needs rows; the kernel file can widen them
    } else if (access.kind.space != MemorySpace::Texture) {
        access.textureRowBytes.clear();
    }
    // An emptied field is shown (and its error) but not written into the kernel: a kernel's
    // expressions are never empty in a file, so the session stays readable and the text the
    // field held before is what the kernel keeps.
    const bool addressBlank = isBlank(source.addressExpression);
    const bool activeBlank = isBlank(source.activeExpression);
    if (!addressBlank) {
        access.addressExpression = source.addressExpression;
    }
    if (!activeBlank) {
        access.activeExpression = source.activeExpression;
    }
    // An async copy's shared side (kept as typed while blank, as the others are); any other op
    // has none.
    const bool sharedBlank = isBlank(source.sharedAddressExpression);
    if (access.kind.op != AccessOp::CopyAsync) {
        access.sharedAddressExpression.clear();
    } else if (!sharedBlank) {
        access.sharedAddressExpression = source.sharedAddressExpression;
    }
    kernel.parameters = source.parameters;
    const Pattern& before = current().pattern;
    // The block and grid boxes give numbers; they replace the launch's expressions only when
    // the user changed them.
    if (!before.source || source.blockDim != before.source->blockDim) {
        kernel.launch.block = dimTexts(source.blockDim);
    }
    if (!before.source || source.gridDim != before.source->gridDim) {
        kernel.launch.grid = dimTexts(source.gridDim);
    }
    after.pattern = accessPattern(kernel, index, pattern);
    if (addressBlank) {
        after.pattern.source->addressExpression = source.addressExpression;
    }
    if (activeBlank) {
        after.pattern.source->activeExpression = source.activeExpression;
    }
    if (sharedBlank && access.kind.op == AccessOp::CopyAsync) {
        after.pattern.source->sharedAddressExpression = source.sharedAddressExpression;
    }
    return after;
}

void PatternDocument::pushKernel(NamedPattern after, const QString& description, int mergeId,
                                 int select) {
    if (after == current() && select == m_selectedAccess) {
        return;
    }
    m_undoStack->push(new PatternEditCommand(this, m_currentEntry, current(), m_presetId,
                                             std::move(after), m_presetId, description, mergeId,
                                             m_selectedAccess, select));
}

void PatternDocument::selectAccess(int index) {
    const auto& k = kernel();
    if (!k || index < 0 || index >= static_cast<int>(k->accesses.size()) ||
        index == m_selectedAccess) {
        return;
    }
    m_selectedAccess = index;
    m_entries[static_cast<std::size_t>(m_currentEntry)].pattern.pattern =
        accessPattern(*k, index, pattern());
    touch();
    emit patternChanged();
    reevaluate();
}

void PatternDocument::editKernel(const Kernel& kernel, const QString& description, int mergeId,
                                 std::optional<int> select) {
    if (kernel.accesses.empty()) {
        return;
    }
    const int count = static_cast<int>(kernel.accesses.size());
    const int selected = std::clamp(select.value_or(m_selectedAccess), 0, count - 1);
    NamedPattern after = current();
    after.kernel = kernel;
    after.pattern = accessPattern(kernel, selected, current().pattern);
    pushKernel(std::move(after), description, mergeId, selected);
}

Result<Kernel> PatternDocument::kernelOrPatternKernel() const {
    if (kernel()) {
        return *kernel();
    }
    auto made = kernelFromPattern(pattern());
    if (!made) {
        return made.error();
    }
    Kernel out = std::move(made).value();
    if (out.name.empty()) {
        out.name = kernelNameFromTitle(current().title);
    }
    return out;
}

bool PatternDocument::addAccess() {
    auto made = kernelOrPatternKernel();
    if (!made || made.value().accesses.size() >= kMaxAccesses) {
        return false;
    }
    Kernel kernel = std::move(made).value();
    KernelAccess access;
    access.addressExpression = "4 * gid";
    access.label = "access " + std::to_string(kernel.accesses.size() + 1);
    if (kernel.buffers.empty()) {
        access.kind.space = MemorySpace::Shared;
    } else {
        access.buffer = kernel.buffers.front().name;
    }
    const int at = insertAccessAfter(kernel, m_selectedAccess, std::move(access));
    editKernel(kernel, tr("Add an access"), static_cast<int>(EditMerge::None), at);
    return true;
}

bool PatternDocument::removeAccess(int index) {
    const auto& k = kernel();
    if (!k || k->accesses.size() <= 1 || index < 0 ||
        index >= static_cast<int>(k->accesses.size())) {
        return false;
    }
    Kernel kernel = *k;
    const QString label =
        QString::fromStdString(kernel.accesses[static_cast<std::size_t>(index)].label);
    kernel.accesses.erase(kernel.accesses.begin() + index);
    const int select = std::min(index, static_cast<int>(kernel.accesses.size()) - 1);
    editKernel(kernel,
               label.isEmpty() ? tr("Remove access %1").arg(index + 1)
                               : tr("Remove access %1 (%2)").arg(index + 1).arg(label),
               static_cast<int>(EditMerge::None), select);
    return true;
}

bool PatternDocument::duplicateAccess(int index) {
    auto made = kernelOrPatternKernel();
    if (!made) {
        return false;
    }
    Kernel kernel = std::move(made).value();
    if (kernel.accesses.size() >= kMaxAccesses || index < 0 ||
        index >= static_cast<int>(kernel.accesses.size())) {
        return false;
    }
    KernelAccess copy = kernel.accesses[static_cast<std::size_t>(index)];
    if (!copy.label.empty()) {
        copy.label += " (copy)";
    }
    const int at = insertAccessAfter(kernel, index, std::move(copy));
    editKernel(kernel, tr("Duplicate access %1").arg(index + 1), static_cast<int>(EditMerge::None),
               at);
    return true;
}

bool PatternDocument::moveAccess(int index, int delta) {
    const auto& k = kernel();
    if (!k) {
        return false;
    }
    const int count = static_cast<int>(k->accesses.size());
    const int to = index + delta;
    if (index < 0 || index >= count || to < 0 || to >= count || delta == 0) {
        return false;
    }
    Kernel kernel = *k;
    const KernelAccess moved = kernel.accesses[static_cast<std::size_t>(index)];
    kernel.accesses.erase(kernel.accesses.begin() + index);
    kernel.accesses.insert(kernel.accesses.begin() + to, moved);
    editKernel(kernel,
               delta < 0 ? tr("Move access %1 up").arg(index + 1)
                         : tr("Move access %1 down").arg(index + 1),
               static_cast<int>(EditMerge::None), to);
    return true;
}

bool PatternDocument::addBuffer() {
    auto made = kernelOrPatternKernel();
    if (!made || made.value().buffers.size() >= kMaxBuffers) {
        return false;
    }
    Kernel kernel = std::move(made).value();
    std::string name;
    for (int n = static_cast<int>(kernel.buffers.size()) + 1;; ++n) {
        name = "buffer" + std::to_string(n);
        if (!nameTaken(kernel, name, -1)) {
            break;
        }
    }
    const std::string bytes =
        kernel.buffers.empty() ? std::string("1048576") : kernel.buffers.back().bytesExpression;
    kernel.buffers.push_back(KernelBuffer{name, bytes});
    editKernel(kernel, tr("Add buffer %1").arg(QString::fromStdString(name)));
    return true;
}

bool PatternDocument::removeBuffer(int index) {
    const auto& k = kernel();
    if (!k || index < 0 || index >= static_cast<int>(k->buffers.size()) ||
        accessUsingBuffer(*k, index) >= 0) {
        return false;
    }
    Kernel kernel = *k;
    const QString name =
        QString::fromStdString(kernel.buffers[static_cast<std::size_t>(index)].name);
    kernel.buffers.erase(kernel.buffers.begin() + index);
    editKernel(kernel, tr("Remove buffer %1").arg(name));
    return true;
}

std::optional<QString> PatternDocument::renameBuffer(int index, const QString& name) {
    const auto& k = kernel();
    if (!k || index < 0 || index >= static_cast<int>(k->buffers.size())) {
        return tr("there is no buffer %1").arg(index + 1);
    }
    const std::string text = name.trimmed().toStdString();
    const std::string old = k->buffers[static_cast<std::size_t>(index)].name;
    if (!isValidParameterName(text)) {
        return tr("buffer %1 (\"%2\"): \"%3\" cannot be a buffer name (a C identifier that is "
                  "not a built-in name); the name stays \"%2\"")
            .arg(index + 1)
            .arg(QString::fromStdString(old), name);
    }
    if (nameTaken(*k, text, index)) {
        return tr("buffer %1 (\"%2\"): \"%3\" is already the name of a parameter or of another "
                  "buffer; the name stays \"%2\"")
            .arg(index + 1)
            .arg(QString::fromStdString(old), name);
    }
    Kernel kernel = *k;
    kernel.buffers[static_cast<std::size_t>(index)].name = text;
    for (KernelAccess& access : kernel.accesses) {
        if (access.kind.space != MemorySpace::Shared && access.buffer == old) {
            access.buffer = text;
        }
    }
    editKernel(kernel, tr("Rename buffer %1").arg(QString::fromStdString(old)),
               static_cast<int>(EditMerge::FirstBufferName) + index);
    return std::nullopt;
}

std::optional<QString> PatternDocument::setBufferSize(int index, const QString& expression) {
    const auto& k = kernel();
    if (!k || index < 0 || index >= static_cast<int>(k->buffers.size())) {
        return tr("there is no buffer %1").arg(index + 1);
    }
    const std::string text = expression.trimmed().toStdString();
    const QString name = QString::fromStdString(k->buffers[static_cast<std::size_t>(index)].name);
    if (text.empty()) {
        return tr("buffer \"%1\": the size must not be empty (bytes, an expression of the "
                  "parameters such as n * 4)")
            .arg(name);
    }
    Kernel kernel = *k;
    kernel.buffers[static_cast<std::size_t>(index)].bytesExpression = text;
    editKernel(kernel, tr("Size buffer %1").arg(name),
               static_cast<int>(EditMerge::FirstBufferSize) + index);
    return std::nullopt;
}

std::optional<QString> PatternDocument::setLaunchField(int field, const QString& expression) {
    auto made = kernelOrPatternKernel();
    if (!made || field < 0 || field >= 6) {
        return tr("this pattern has no launch to edit");
    }
    static const char* const kNames[6] = {"grid.x",  "grid.y",  "grid.z",
                                          "block.x", "block.y", "block.z"};
    const std::string text = expression.trimmed().toStdString();
    if (text.empty()) {
        return tr("%1 must not be empty (a number, or an expression of the parameters such as "
                  "n / 32)")
            .arg(QLatin1String(kNames[field]));
    }
    Kernel kernel = std::move(made).value();
    std::string& slot = field < 3 ? kernel.launch.grid[static_cast<std::size_t>(field)]
                                  : kernel.launch.block[static_cast<std::size_t>(field - 3)];
    if (slot == text && this->kernel()) {
        return std::nullopt;
    }
    slot = text;
    editKernel(kernel, tr("Set %1").arg(QLatin1String(kNames[field])),
               static_cast<int>(EditMerge::FirstLaunchField) + field);
    return std::nullopt;
}

void PatternDocument::setAccessLabel(const QString& label) {
    const auto& k = kernel();
    if (!k) {
        return;
    }
    Kernel kernel = *k;
    kernel.accesses[static_cast<std::size_t>(m_selectedAccess)].label = label.toStdString();
    editKernel(kernel, tr("Rename access %1").arg(m_selectedAccess + 1),
               static_cast<int>(EditMerge::AccessLabel));
}

void PatternDocument::setAccessBuffer(const QString& buffer) {
    const auto& k = kernel();
    if (!k) {
        return;
    }
    Kernel kernel = *k;
    KernelAccess& access = kernel.accesses[static_cast<std::size_t>(m_selectedAccess)];
    if (access.kind.space == MemorySpace::Shared || access.buffer == buffer.toStdString()) {
        return;
    }
    access.buffer = buffer.toStdString();
    editKernel(kernel, tr("Access %1 addresses %2").arg(m_selectedAccess + 1).arg(buffer));
}

} // namespace warpscope::app
