// The one file opener (file_open.h): open with O_NONBLOCK so that a FIFO without a writer cannot
// block, fstat the open descriptor (not the name, which could change in between), refuse anything
// but a regular file, then read at most the cap plus one byte.
#include "warpscope/file_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace warpscope {

namespace {

constexpr std::size_t kDefaultCapMiB = 16;
constexpr std::size_t kLargestCapMiB = 4096;

std::string mib(std::size_t bytes) {
    return std::to_string(bytes / (std::size_t{1024} * 1024)) + " MiB";
}

const char* kindOf(mode_t mode) {
    if (S_ISDIR(mode)) {
        return "is a directory";
    }
    if (S_ISFIFO(mode)) {
        return "is a FIFO (named pipe)";
    }
    if (S_ISCHR(mode)) {
        return "is a character device";
    }
    if (S_ISBLK(mode)) {
        return "is a block device";
    }
    if (S_ISSOCK(mode)) {
        return "is a socket";
    }
    return "is not a regular file";
}

/// Closes the descriptor on every path out.
class Descriptor {
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    ~Descriptor() {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace

std::size_t maxFileBytes() {
    static const std::size_t bytes = [] {
        std::size_t value = kDefaultCapMiB;
        if (const char* text = std::getenv("WARPSCOPE_MAX_FILE_MIB")) {
            const std::string_view view(text);
            std::size_t parsed = 0;
            const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), parsed);
            if (ec == std::errc() && end == view.data() + view.size() && parsed >= 1 &&
                parsed <= kLargestCapMiB) {
                value = parsed;
            }
        }
        return value * 1024u * 1024u;
    }();
    return bytes;
}

Result<std::string> readRegularFile(const std::string& path, std::size_t capBytes) {
    const auto ioError = [&](std::string message) {
        return Error{ErrorCode::Io, std::move(message), 0, path};
    };
    const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) {
        const int error = errno;
        // A socket cannot be opened at all (ENXIO): say what it is, as for the others.
        struct stat named {};
        if (error != ENOENT && ::stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode)) {
            return ioError(std::string(kindOf(named.st_mode)) +
                           ", not a regular file: give the path of a file saved on disk");
        }
        return ioError(error == ENOENT
                           ? "cannot open the file: no such file"
                           : std::string("cannot open the file: ") + std::strerror(error));
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) {
        return ioError(std::string("cannot inspect the file: ") + std::strerror(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        return ioError(std::string(kindOf(info.st_mode)) +
                       ", not a regular file: give the path of a file saved on disk");
    }
    const auto tooLarge = [&](const std::string& size) {
        return ioError("the file is " + size + "; warpscope reads files of at most " +
                       mib(capBytes) + " (WARPSCOPE_MAX_FILE_MIB raises the cap)");
    };
    if (static_cast<std::uint64_t>(info.st_size) > capBytes) {
        return tooLarge(std::to_string(info.st_size) + " bytes");
    }
    // A regular file never blocks; read at most one byte past the cap, so a file that grows
    // while it is read cannot exhaust memory either.
    std::string text;
    text.reserve(static_cast<std::size_t>(info.st_size));
    char buffer[64 * 1024];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return ioError(std::string("reading the file failed: ") + std::strerror(errno));
        }
        if (got == 0) {
            break;
        }
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > capBytes) {
            return tooLarge("larger than " + mib(capBytes));
        }
    }
    return text;
}

} // namespace warpscope
