// A scratch directory for tests that write files (the core's and the CLI's hostile-file tests):
// made under /tmp with a name of its own, removed with everything in it at the end of the test.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace warpscope::testsupport {

class ScratchDir {
public:
    /// `prefix` names the directory: "/tmp/PREFIX-XXXXXX". Empty path when it cannot be made.
    explicit ScratchDir(const std::string& prefix) {
        std::string pattern = "/tmp/" + prefix + "-XXXXXX";
        const char* made = ::mkdtemp(pattern.data());
        m_path = made != nullptr ? made : "";
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string file(const std::string& name) const { return m_path + "/" + name; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace warpscope::testsupport
