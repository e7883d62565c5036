// Special files against the one opener (issue 30): a FIFO with no writer, a device, a directory
// and a socket are refused at once with a message saying what they are; a regular file is read
// up to its cap and no further.
#include "warpscope/file_format.h"
#include "warpscope/file_open.h"
#include "warpscope/pattern_arguments.h"

#include "../scratch_dir.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace warpscope {
namespace {

namespace fs = std::filesystem;

using warpscope::testsupport::ScratchDir;

/// Reads `path` through the opener and checks it answered quickly with an Io error.
Error refusedQuickly(const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    auto text = readTextFile(path);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 2.0) << path; // a blocked open never returns: this guards the hang
    EXPECT_FALSE(text.ok()) << path;
    if (text.ok()) {
        return {};
    }
    EXPECT_EQ(text.error().code, ErrorCode::Io);
    EXPECT_EQ(text.error().where, path);
    return text.error();
}

TEST(HostileFiles, AFifoWithNoWriterIsRefusedWithoutBlocking) {
    ScratchDir dir("warpscope-hostile");
    const std::string fifo = dir.file("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const Error error = refusedQuickly(fifo);
    EXPECT_NE(error.message.find("FIFO"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("not a regular file"), std::string::npos) << error.message;
}

TEST(HostileFiles, ADeviceIsRefusedNotReadUntilMemoryRunsOut) {
    const Error zero = refusedQuickly("/dev/zero");
    EXPECT_NE(zero.message.find("character device"), std::string::npos) << zero.message;
    refusedQuickly("/dev/urandom");
}

TEST(HostileFiles, ADirectoryAndASocketAreRefused) {
    ScratchDir dir("warpscope-hostile");
    const Error directory = refusedQuickly(dir.path());
    EXPECT_NE(directory.message.find("directory"), std::string::npos) << directory.message;

    const std::string socketPath = dir.file("s");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    const Error socket = refusedQuickly(socketPath);
    EXPECT_NE(socket.message.find("socket"), std::string::npos) << socket.message;
    ::close(fd);
}

TEST(HostileFiles, ARegularFileIsReadUpToItsCap) {
    ScratchDir dir("warpscope-hostile");
    const std::string path = dir.file("f.json");
    {
        std::ofstream out(path, std::ios::binary);
        out << std::string(1000, 'x');
    }
    auto whole = readRegularFile(path, 1000);
    ASSERT_TRUE(whole.ok()) << whole.error().describe();
    EXPECT_EQ(whole->size(), 1000u);
    auto over = readRegularFile(path, 999);
    ASSERT_FALSE(over.ok());
    EXPECT_NE(over.error().message.find("1000 bytes"), std::string::npos) << over.error().message;
    EXPECT_NE(over.error().message.find("WARPSCOPE_MAX_FILE_MIB"), std::string::npos);
    EXPECT_EQ(maxFileBytes(), kMaxFileBytes); // the tests run without the variable
    auto missing = readTextFile(dir.file("none"));
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("no such file"), std::string::npos);
}

TEST(HostileFiles, APatternFileArgumentGoesThroughTheOpener) {
    ScratchDir dir("warpscope-hostile");
    const std::string fifo = dir.file("pattern.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    auto subject = patternSubject(fifo);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
    ASSERT_FALSE(subject.ok());
    EXPECT_NE(subject.error().describe().find("FIFO"), std::string::npos)
        << subject.error().describe();
}

} // namespace
} // namespace warpscope
