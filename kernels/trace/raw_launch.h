// The launcher's side of the raw launch file (trace_raw.h): read it back guarded (it comes from
// another process, which may have died while writing it) and turn it, with the kernel's SASS,
// into a .wstrace through core's TraceWriter. Plain C++: built and tested without a GPU.
#pragma once

#include "sass_listing.h"
#include "trace_raw.h"
#include "warpscope/result.h"
#include "warpscope/trace_file.h"

#include <map>
#include <string>
#include <vector>

namespace warpscope::trace {

struct RawLaunch {
    RawLaunchHeader header{};
    std::string mangledName;
    std::vector<RawRecord> records;
};

Result<RawLaunch> readRawLaunch(const std::string& bytes);

/// The demangled name, or `mangled` itself when it is not a C++ name.
std::string demangle(const std::string& mangled);

/// What a raw access's flags mean: a read, a write, or both (an atomic).
TraceOp traceOpFromFlags(std::uint32_t flags);

struct BuiltTrace {
    TraceWriter writer;
    std::size_t instructions = 0;
    std::size_t recordsKept = 0;
    std::size_t recordsSkipped = 0; // widths the trace format does not take
};

/// The trace of one launch: one instruction per (PC offset, space, op, width), in PC order.
BuiltTrace buildTrace(const RawLaunch& launch, const std::map<std::uint64_t, SassInstruction>& sass,
                      const std::string& program);

} // namespace warpscope::trace
