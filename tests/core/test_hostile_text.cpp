// Hostile text (issue 30): a kernel name that is not an identifier is refused by the kernel
// reader and by resolveKernel (it reaches the generated CUDA source), and text printed to a
// terminal keeps no control character.
#include "warpscope/command_line_text.h"
#include "warpscope/kernel.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace warpscope {
namespace {

const char* const kIncludeName =
    R"({"name": "#include \"/etc/hostname\"", "buffers": [{"name": "data", "bytes": 4096}],
        "accesses": [{"op": "load", "space": "global", "width": 4, "buffer": "data",
                      "address": "lane * 4"}]})";

TEST(HostileText, AKernelNameThatIsNotAnIdentifierIsRefusedByTheReader) {
    auto kernel = kernelFromJsonText(kIncludeName);
    ASSERT_FALSE(kernel.ok());
    EXPECT_EQ(kernel.error().where, "/name");
    EXPECT_NE(kernel.error().message.find("cannot be a kernel name"), std::string::npos)
        << kernel.error().message;
    for (const char* bad :
         {"a\nb", "x*/y", " lead", "-lead", "a#b", "a/b", "back\\slash", "\x1b[2J"}) {
        EXPECT_FALSE(isValidKernelName(bad)) << bad;
    }
    EXPECT_FALSE(isValidKernelName(std::string(kMaxKernelNameLength + 1, 'a')));
    for (const char* good : {"", "readOffset", "transpose-naivecol-cg", "f-w16-bit10-p0",
                             "sum_arrays.v2", "a+b", "naive col"}) {
        EXPECT_TRUE(isValidKernelName(good)) << good;
    }
}

TEST(HostileText, ResolveKernelRefusesTheNameAgain) {
    // A kernel built in code (the app, a preset) never passed the reader.
    Kernel kernel;
    kernel.name = "#include \"/etc/hostname\"";
    kernel.buffers = {KernelBuffer{"data", "4096"}};
    KernelAccess access;
    access.buffer = "data";
    access.addressExpression = "lane * 4";
    kernel.accesses = {access};
    auto resolved = resolveKernel(kernel);
    ASSERT_FALSE(resolved.ok());
    EXPECT_EQ(resolved.error().where, "/name");
    // The message shows the name only as printable ASCII.
    kernel.name = "a\nb\x1b";
    auto again = resolveKernel(kernel);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message.find('\n'), std::string::npos);
    EXPECT_EQ(again.error().message.find('\x1b'), std::string::npos);
}

TEST(HostileText, TerminalTextEscapesControlCharacters) {
    EXPECT_EQ(terminalText("plain title"), "plain title");
    EXPECT_EQ(terminalText("x\x1b]0;owned\x07y"), "x\\x1b]0;owned\\x07y");
    EXPECT_EQ(terminalText("a\nb\rc\x7f"), "a\\x0ab\\x0dc\\x7f");
    // U+009B (CSI in C1) encoded as UTF-8, and a lone 0x9b byte.
    EXPECT_EQ(terminalText("\xc2\x9b"
                           "2J"),
              "\\u009b2J");
    EXPECT_EQ(terminalText("\x9b"
                           "2J"),
              "\\x9b2J");
    // Printable UTF-8 stays: x, a multiplication sign, an arrow.
    EXPECT_EQ(terminalText("2048\xc3\x97"
                           "2048 \xe2\x86\x92 ok"),
              "2048\xc3\x97"
              "2048 \xe2\x86\x92 ok");
    std::ostringstream out;
    writeCommandError(out, "warpscope-cli", "bad \x1b[31mred");
    EXPECT_EQ(out.str(), "warpscope-cli: bad \\x1b[31mred\n");
}

} // namespace
} // namespace warpscope
