// warpscope-trace: runs a user's CUDA program with the tracer library injected through the
// toolkit's documented CUDA_INJECTION64_PATH, then turns what the library recorded (a raw launch
// file and the module's cubin) into a .wstrace: SASS text and source lines from nvdisasm, kernel
// names demangled, records grouped by instruction. docs/guide/tracing.md shows how to use it.
#include "raw_launch.h"
#include "sass_listing.h"
#include "warpscope/trace_file.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace warpscope;
using namespace warpscope::trace;
namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitIncomplete = 1; // a trace was written, but marked incomplete
constexpr int kExitBadInput = 2;
constexpr int kExitNothingTraced = 3;

const char* const kUsage =
    R"(Usage: warpscope-trace [options] -o FILE.wstrace -- PROGRAM [ARGS...]

Runs PROGRAM with warpscope's tracer injected and records, for one launch of the kernels asked
for, every global, shared and local memory instruction's 32 lane addresses for the selected warps.

  --kernel REGEX     trace kernels whose (mangled) name matches REGEX (default: any)
  --launch N         the N-th matching launch, counted from 1 (default 1)
  --warps SPEC       which warps record: BLOCK:WARP[,BLOCK:WARP...] (linear block index, warp in
                     the block; at most 64), sample:N (N warps spread evenly over the launch) or
                     all (default sample:64, which includes block 0's warp 0)
  --spaces LIST      global,shared,local (default all three)
  --max-records N    device buffer size in warp records of 296 bytes (default 262144); records
                     past it are dropped and counted
  -o FILE            the trace to write

Exit status: 0 a complete trace; 1 a trace marked incomplete (the program or kernel failed, or
records were dropped); 2 bad usage; 3 nothing traced (see the message).
)";

struct Options {
    std::string kernel = ".*";
    std::uint64_t launch = 1;
    std::string warps = "sample:64";
    std::uint32_t spaces = 7;
    std::uint64_t maxRecords = 262144;
    std::string output;
    std::vector<std::string> program;
};

int usageError(const std::string& message) {
    std::cerr << "warpscope-trace: " << message << "\nRun 'warpscope-trace --help' for usage.\n";
    return kExitBadInput;
}

bool parseCount(const std::string& text, std::uint64_t low, std::uint64_t high,
                std::uint64_t& out) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 12) {
        return false;
    }
    out = std::stoull(text);
    return out >= low && out <= high;
}

/// Checks --warps: "all", "sample:N" or up to 64 BLOCK:WARP pairs.
bool validWarps(const std::string& spec) {
    if (spec == "all") {
        return true;
    }
    std::uint64_t n = 0;
    if (spec.rfind("sample:", 0) == 0) {
        return parseCount(spec.substr(7), 1, 1u << 30, n);
    }
    std::stringstream pairs(spec);
    std::string pair;
    std::size_t count = 0;
    while (std::getline(pairs, pair, ',')) {
        const std::size_t colon = pair.find(':');
        if (colon == std::string::npos || !parseCount(pair.substr(0, colon), 0, 0xffffffffu, n) ||
            !parseCount(pair.substr(colon + 1), 0, 31, n) || ++count > 64) {
            return false;
        }
    }
    return count > 0 && spec.back() != ',';
}

bool parseSpaces(const std::string& list, std::uint32_t& out) {
    out = 0;
    std::stringstream names(list);
    std::string name;
    while (std::getline(names, name, ',')) {
        if (name == "global") {
            out |= 1u << RawGlobal;
        } else if (name == "shared") {
            out |= 1u << RawShared;
        } else if (name == "local") {
            out |= 1u << RawLocal;
        } else {
            return false;
        }
    }
    return out != 0;
}

/// Parses the command line; returns -1 to go on, or an exit status.
int parseArguments(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            options.program.assign(argv + i + 1, argv + argc);
            break;
        }
        if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return kExitOk;
        }
        if (i + 1 >= argc) {
            return usageError("'" + arg + "' needs a value, or is not an option");
        }
        const std::string value = argv[++i];
        if (arg == "--kernel") {
            try {
                std::regex check(value, std::regex::ECMAScript);
            } catch (const std::regex_error& error) {
                return usageError("--kernel '" + value +
                                  "' is not a regular expression: " + error.what());
            }
            options.kernel = value;
        } else if (arg == "--launch") {
            if (!parseCount(value, 1, 1u << 30, options.launch)) {
                return usageError("--launch must be a launch number from 1; found '" + value + "'");
            }
        } else if (arg == "--warps") {
            if (!validWarps(value)) {
                return usageError("--warps must be BLOCK:WARP[,BLOCK:WARP...] (warp 0-31, at "
                                  "most 64 pairs), sample:N or all; found '" +
                                  value + "'");
            }
            options.warps = value;
        } else if (arg == "--spaces") {
            if (!parseSpaces(value, options.spaces)) {
                return usageError("--spaces must list global, shared and/or local, separated by "
                                  "commas; found '" +
                                  value + "'");
            }
        } else if (arg == "--max-records") {
            if (!parseCount(value, 1, 1u << 24, options.maxRecords)) {
                return usageError("--max-records must be from 1 to 16777216; found '" + value +
                                  "'");
            }
        } else if (arg == "-o" || arg == "--output") {
            options.output = value;
        } else {
            return usageError("unknown option '" + arg + "'");
        }
    }
    if (options.output.empty()) {
        return usageError("no output file: add -o FILE.wstrace");
    }
    if (options.program.empty()) {
        return usageError("no program to run: add -- PROGRAM [ARGS...]");
    }
    return -1;
}

/// PROGRAM as execvp would find it, or empty.
std::string findProgram(const std::string& name) {
    const auto runnable = [](const fs::path& path) {
        std::error_code ec;
        return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string::npos) {
        return runnable(name) ? name : "";
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (runnable(candidate)) {
            return candidate.string();
        }
    }
    return "";
}

/// The folder holding the injected library and the patches: beside this program, or in
/// ../lib/warpscope when installed.
fs::path libraryDirectory() {
    if (const char* dir = std::getenv("WARPSCOPE_TRACE_LIBRARY_DIR")) {
        return dir;
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec).parent_path();
    for (const fs::path& dir : {self, self / ".." / "lib" / "warpscope"}) {
        if (fs::exists(dir / "libwarpscope-trace-inject.so", ec)) {
            return dir;
        }
    }
    return self;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty()) {
            out.push_back(line);
        }
    }
    return out;
}

/// A tool of the CUDA toolkit: under CUDA_HOME, CUDA_PATH or /usr/local/cuda, else on PATH.
std::string toolkitProgram(const char* name) {
    for (const char* root : std::initializer_list<const char*>{
             std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"), "/usr/local/cuda"}) {
        if (root != nullptr && fs::exists(fs::path(root) / "bin" / name)) {
            return (fs::path(root) / "bin" / name).string();
        }
    }
    return name;
}

/// The SASS listing of the module, with line information: nvdisasm's for a cubin, cuobjdump's
/// when the module is a fatbin nvdisasm does not take; empty when neither works.
std::string disassemble(const fs::path& module, const fs::path& work) {
    const fs::path listing = work / "module.sass";
    const fs::path errors = work / "disassembler.err";
    const auto run = [&](const std::string& program, const std::string& options) {
        const std::string command = "'" + program + "' " + options + " '" + module.string() +
                                    "' > '" + listing.string() + "' 2> '" + errors.string() + "'";
        return std::system(command.c_str()) == 0;
    };
    if (run(toolkitProgram("nvdisasm"), "-c -g") || run(toolkitProgram("cuobjdump"), "-sass")) {
        return readFile(listing);
    }
    std::cerr << "warpscope-trace: warning: neither nvdisasm nor cuobjdump (CUDA toolkit) could "
                 "read the kernel's module, so the trace has no SASS text: "
              << readFile(errors) << "\n";
    return "";
}

bool nvidiaDriverPresent() {
    std::error_code ec;
    return fs::exists("/proc/driver/nvidia/version", ec) || fs::exists("/dev/nvidia0", ec) ||
           fs::exists("/dev/nvidiactl", ec);
}

int runProgram(const Options& options, const std::string& path, const fs::path& work,
               const fs::path& libraries) {
    ::setenv("CUDA_INJECTION64_PATH", (libraries / "libwarpscope-trace-inject.so").c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_DIR", work.c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_PATCHES", (libraries / "warpscope-trace-patches.fatbin").c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_KERNEL", options.kernel.c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_LAUNCH", std::to_string(options.launch).c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_WARPS", options.warps.c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_SPACES", std::to_string(options.spaces).c_str(), 1);
    ::setenv("WARPSCOPE_TRACE_MAX_RECORDS", std::to_string(options.maxRecords).c_str(), 1);
    const pid_t child = ::fork();
    if (child < 0) {
        std::cerr << "warpscope-trace: cannot start the program: " << std::strerror(errno) << "\n";
        return -1;
    }
    if (child == 0) {
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(path.c_str()));
        for (std::size_t i = 1; i < options.program.size(); ++i) {
            argv.push_back(const_cast<char*>(options.program[i].c_str()));
        }
        argv.push_back(nullptr);
        ::execv(path.c_str(), argv.data());
        std::fprintf(stderr, "warpscope-trace: cannot run %s: %s\n", path.c_str(),
                     std::strerror(errno));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

std::string describeStatus(int status) {
    if (WIFSIGNALED(status)) {
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

int writeTrace(const Options& options, const fs::path& work, int status) {
    const std::string program = [&] {
        std::string text;
        for (const std::string& part : options.program) {
            text += (text.empty() ? "" : " ") + part;
        }
        return text;
    }();
    auto raw = readRawLaunch(readFile(work / "launch.bin"));
    if (!raw) {
        std::cerr << "warpscope-trace: " << raw.error().message << "\n";
        return kExitNothingTraced;
    }
    const std::string listing =
        fs::exists(work / "module.cubin") ? disassemble(work / "module.cubin", work) : "";
    const auto sass = parseSassListing(listing, raw.value().mangledName);
    BuiltTrace built = buildTrace(raw.value(), sass, program);
    const bool programFailed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (programFailed && raw.value().header.complete == 0) {
        built.writer.launch(0).complete = false;
    }
    auto written = built.writer.write(options.output);
    if (!written) {
        std::cerr << "warpscope-trace: " << written.error().describe() << "\n";
        return kExitBadInput;
    }
    const RawLaunchHeader& header = raw.value().header;
    std::cerr << "warpscope-trace: traced " << demangle(raw.value().mangledName) << " (grid "
              << header.grid[0] << "," << header.grid[1] << "," << header.grid[2] << ", block "
              << header.block[0] << "," << header.block[1] << "," << header.block[2]
              << "): " << built.instructions << " memory instructions, " << built.recordsKept
              << " warp records -> " << options.output << "\n";
    if (built.recordsSkipped > 0) {
        std::cerr << "warpscope-trace: note: " << built.recordsSkipped
                  << " records of accesses wider than 16 bytes were left out\n";
    }
    if (header.droppedRecords > 0) {
        std::cerr << "warpscope-trace: the record buffer was full: " << header.droppedRecords
                  << " warp records were dropped and the trace is marked incomplete; raise "
                     "--max-records or select fewer warps (--warps)\n";
    }
    if (!built.writer.launch(0).complete) {
        std::cerr << "warpscope-trace: the trace is marked incomplete\n";
        return kExitIncomplete;
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    if (const int exit = parseArguments(argc, argv, options); exit >= 0) {
        return exit;
    }
    const std::string path = findProgram(options.program.front());
    if (path.empty()) {
        return usageError("program '" + options.program.front() +
                          "' not found (not an executable file, nor on PATH)");
    }
    if (!nvidiaDriverPresent()) {
        std::cerr << "warpscope-trace: no NVIDIA driver on this machine (no "
                     "/proc/driver/nvidia/version or /dev/nvidia*): tracing needs a CUDA GPU\n";
        return kExitNothingTraced;
    }
    const fs::path libraries = libraryDirectory();
    for (const char* file : {"libwarpscope-trace-inject.so", "warpscope-trace-patches.fatbin"}) {
        if (!fs::exists(libraries / file)) {
            std::cerr << "warpscope-trace: " << (libraries / file).string()
                      << " is missing: install it beside warpscope-trace (or set "
                         "WARPSCOPE_TRACE_LIBRARY_DIR)\n";
            return kExitBadInput;
        }
    }
    char pattern[] = "/tmp/warpscope-trace-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        std::cerr << "warpscope-trace: cannot create a work folder in /tmp\n";
        return kExitBadInput;
    }
    const fs::path work = pattern;
    const int status = runProgram(options, path, work, libraries);
    if (status < 0) {
        return kExitBadInput;
    }
    const std::vector<std::string> notes = lines(readFile(work / "status.txt"));
    for (const std::string& line : notes) {
        if (line.rfind("error:", 0) == 0 || line.rfind("warning:", 0) == 0) {
            std::cerr << "warpscope-trace: " << line << "\n";
        }
    }
    int exit = kExitNothingTraced;
    if (fs::exists(work / "launch.bin")) {
        exit = writeTrace(options, work, status);
    } else if (notes.empty()) {
        std::cerr << "warpscope-trace: the tracer was not loaded into " << options.program.front()
                  << ": it made no CUDA call, or the driver ignored CUDA_INJECTION64_PATH (some "
                     "container runtimes and older drivers refuse injection; run it outside the "
                     "container or with the NVIDIA container toolkit's full driver "
                     "capabilities)\n";
    } else {
        const std::vector<std::string> kernels = lines(readFile(work / "kernels.txt"));
        bool loadError = false;
        for (const std::string& line : notes) {
            loadError = loadError || line.rfind("error:", 0) == 0;
        }
        if (!loadError) {
            std::cerr << "warpscope-trace: --kernel '" << options.kernel << "' matched "
                      << (options.launch > 1
                              ? "fewer than " + std::to_string(options.launch) + " launches"
                              : std::string("no launch"));
            if (kernels.empty()) {
                std::cerr << "; the program launched no kernel\n";
            } else {
                std::cerr << "; the kernels that ran:\n";
                for (const std::string& kernel : kernels) {
                    std::cerr << "  " << kernel << "  (" << demangle(kernel) << ")\n";
                }
            }
        }
    }
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        std::cerr << "warpscope-trace: " << options.program.front() << " " << describeStatus(status)
                  << "\n";
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    return exit;
}
