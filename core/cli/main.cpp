// warpscope-cli: the core's models from a terminal or a script, with no GPU and no Qt.
//   analyze  one pattern (preset id, pattern file or address expression) as a per-lane table
//            followed by what the modern and textbook models predict;
//   predict  JSON lines in, JSON lines out, for scripts and for checking against `ncu`;
//   presets  the built-in presets by topic;
//   and the kernel, TMA and trace commands. Each command lives in a file of its own
//   (commands.h); this one holds the usage text and the dispatch.
// docs/cli.md describes every command, option, line format and exit status.
#include "cli_common.h"
#include "commands.h"
#include "tma_layout_command.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#ifndef WARPSCOPE_VERSION
#define WARPSCOPE_VERSION "unknown"
#endif

namespace {

using namespace warpscope::cli;

const char* const kUsage = R"(warpscope-cli )" WARPSCOPE_VERSION
                           R"( - what one CUDA warp's memory access costs, predicted without a GPU.

Usage:
  warpscope-cli analyze <preset | file.json | expression> [options]
  warpscope-cli predict [--textbook-bank-mode 4|8] [--textbook-uncached-default]
  warpscope-cli presets
  warpscope-cli analyze-kernel <kernel preset | kernel.json> [--param NAME=VALUE ...]
                               [--progress]
  warpscope-cli predict-kernel [--preset ID] [--param NAME=VALUE ...]
  warpscope-cli kernels
  warpscope-cli tma-layout --swizzle none|32B|64B|128B --box INNERxROWS --element-bytes N
                           [--smem-offset N]
  warpscope-cli trace-summary FILE.wstrace [--json]
  warpscope-cli help | --help | --version

analyze   Prints each lane's address, 32-byte sector, 128-byte line and shared-memory bank,
          then what the two models predict: "modern" (compute capability 7.0 and later, as
          Nsight Compute counts) and "textbook" (the Fermi/Kepler rules of the course notes).
          The argument is tried as a preset id (see `warpscope-cli presets`), then as a
          pattern file, then as an address expression giving each lane's byte address.

  --width N              element width in bytes: 1, 2, 4, 8 or 16 (default 4)
  --op load|store        (default load)
  --space global|shared|constant|local|texture
                         (default global; constant: loads only, 64 KiB; local: each thread's
                         own words, interleaved; texture: loads through the texture cache)
  --cache default|ca|cg|nc
                         global-load cache operator, as PTX ld.global.ca/.cg/.nc
  --model modern|textbook|both
                         which predictions to print (default both)
  --param NAME=VALUE     set an expression parameter; repeat for several
  --block X[,Y[,Z]]      block shape (default 32,1,1)
  --warp N               which warp of the block (default 0)
  --active EXPR          only lanes where EXPR is non-zero execute the access (default 1)
  --bank-mode 4|8        textbook shared-memory bank width (8: Kepler's eight-byte mode)
  --uncached             textbook: plain loads bypass L1 (32-byte segments, as on K40)
  Options override what a preset or file says.

predict   Reads one pattern per line on stdin, as JSON:
            {"space":"global","op":"load","width":4,"cache":"default","addresses":[0,4,...]}
          (32 addresses, null for an inactive lane) and writes one JSON object per line:
            {"line":1,"metrics":{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum":4,...}}
          or {"line":N,"error":{"code":...,"message":...,"where":...}} and goes on.
  --textbook-bank-mode 4|8, --textbook-uncached-default: as --bank-mode and --uncached.

analyze-kernel  Evaluates every thread of a whole kernel (several accesses over real buffers,
          at its real launch) and prints, per access, the requests and sectors (or wavefronts
          and bank conflicts) summed over the grid, how the warps spread, the worst warp, each
          buffer's footprint and the totals under Nsight Compute's names. It first prints
          the walk's size (thread-accesses) and refuses one above the grid model's budget
          (WARPSCOPE_GRID_WORK_LIMIT, WARPSCOPE_GRID_MEMORY_MIB raise it). Progress goes to
          stderr on a terminal, or with --progress; Ctrl+C stops the walk (exit status 130).
predict-kernel  Reads one kernel per line on stdin, as JSON (docs/file-formats.md):
            {"grid":[128,128,1],"block":[16,16,1],"parameters":{"nx":2048},
             "buffers":[{"name":"in","bytes":16777216}],"accesses":[{"op":"load",...}]}
          and writes {"line":1,"metrics":{...},"accesses":[...]} per kernel, or an error line
          naming the place, and goes on. --preset ID answers for a built-in kernel instead.
kernels   The built-in kernel presets: the course notes' kernels at the notes' sizes.

Expressions are C integer arithmetic over lane, warp, gid, tid.x tid.y tid.z, bdim.x/y/z,
bid.x/y/z, gdim.x/y/z, min(a,b), max(a,b), abs(a) and your --param names. Quote them.

Examples:
  warpscope-cli analyze 'lane * 4'                     coalesced 4-byte loads
  warpscope-cli analyze '(lane + 11) * 4' --cache cg   misaligned by 11 elements, L1 bypassed
  warpscope-cli analyze 'lane * 128' --space shared    stride of 32 words: a 32-way bank conflict
  warpscope-cli analyze 'lane * 4 + o * 4' --param o=11
  warpscope-cli presets

Exit status: 0 success; 1 predict or predict-kernel answered at least one line with an error;
2 bad usage or a pattern that cannot be analysed; 130 analyze-kernel stopped by Ctrl+C.
See docs/cli.md.
)";

} // namespace

int runTraceSummary(const std::vector<std::string>& args); // trace_command.cpp

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return kExitBadInput;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        std::cout << "warpscope-cli " << WARPSCOPE_VERSION << "\n";
        return kExitOk;
    }
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "analyze") {
        return runAnalyze(args);
    }
    if (command == "predict") {
        return runPredict(args);
    }
    if (command == "presets") {
        return runPresets(args);
    }
    if (command == "predict-kernel") {
        return runPredictKernel(args);
    }
    if (command == "analyze-kernel") {
        return runAnalyzeKernel(args);
    }
    if (command == "kernels") {
        return runKernelPresets(args);
    }
    if (command == "tma-layout") {
        return warpscope::cli::runTmaLayout(args);
    }
    if (command == "trace-summary") {
        return runTraceSummary(args);
    }
    return usageError("unknown command '" + command +
                      "'; the commands are analyze, predict, presets, analyze-kernel, "
                      "predict-kernel, kernels, tma-layout, trace-summary and help");
}
