// libFuzzer target for the trace file reader (core/src/trace_file*.cpp): any bytes must open to a
// reader or an Error, never a crash, a hang or an allocation the file's size does not back; and
// everything an opened reader offers (each instruction's records, each warp's, the summaries,
// each record as a pattern) must give values or Errors too. Seeds: fuzz/corpus/trace_file/.
#include "fuzz_check.h"
#include "warpscope/model.h"
#include "warpscope/trace_file.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto reader =
        warpscope::TraceReader::fromBytes(std::string(reinterpret_cast<const char*>(data), size));
    if (!reader) {
        check(!reader.error().message.empty());
        return 0;
    }
    const warpscope::TraceReader& trace = reader.value();
    const warpscope::TraceHeader& header = trace.header();
    check(trace.recordAreaOffset() + header.recordCount * warpscope::kTraceRecordBytes == size);
    for (std::size_t i = 0; i < header.instructions.size(); ++i) {
        auto records = trace.instructionRecords(i);
        if (!records) {
            check(!records.error().message.empty());
            continue;
        }
        for (const warpscope::TraceRecord& record : records.value()) {
            if (auto pattern = warpscope::tracedPattern(header.instructions[i], record)) {
                if (auto access = warpscope::resolve(pattern.value())) {
                    (void)warpscope::predictModern(access.value());
                }
            }
        }
    }
    for (std::size_t launch = 0; launch < header.launches.size(); ++launch) {
        (void)warpscope::summarizeTraceLaunch(trace, launch);
        (void)trace.warpRecords(launch, {0, 0, 0}, 0);
    }
    return 0;
}
