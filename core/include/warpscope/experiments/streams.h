// Streams and overlap (measure_streams, `warpscope-probe streams`): the course notes' staged
// copy-and-kernel experiment (seed 003, "Overlapping Kernel Execution and Data Transfers", and the
// NVIDIA blog post it cites). An array is copied in from pinned host memory (cudaMemcpyAsync), a
// kernel works on it and it is copied out, first on one stream (sequential), then split into
// chunks over 2 to 8 streams (overlapped). Each point is the median of repeated runs and carries
// the timeline of every copy and kernel. Declared once: the options and their limits, the
// measurement the probe's backends fill, its JSON as the probe writes it (with the model's
// prediction beside each run; docs/protocol.md) and the guarded reader the app reads it back with.
#pragma once

#include "warpscope/experiments/command_line.h"
#include "warpscope/result.h"
#include "warpscope/streams.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::experiments {

struct StreamsOptions {
    std::int64_t bytes = std::int64_t{64} << 20; // the whole array, copied in and out
    std::vector<int> streams;                    // stream counts; empty: 1 to 8
    int repetitions = 7;                         // timed runs per stream count, after a warm-up
    /// Multiply-adds per element in the kernel; 0 picks a count that makes the kernel take about
    /// as long as the copy in (so that all three stages can overlap).
    int work = 0;
    StreamIssueOrder order = StreamIssueOrder::PerStream;
};

/// Limits of the options (docs/protocol.md names them).
inline constexpr std::int64_t kStreamsMinBytes = std::int64_t{64} << 10;
inline constexpr std::int64_t kStreamsMaxBytes = std::int64_t{16} << 30;
inline constexpr int kStreamsMaxStreams = 32;
inline constexpr int kStreamsMaxWork = 1 << 16;
inline constexpr int kStreamsMaxRepetitions = 1000;
/// The most stream counts and copy engines an answer may name (the reader's bound).
inline constexpr int kStreamsMaxAnswerStreams = 64;

/// One copy or kernel of a run, from the repetition whose total was the median.
struct StreamsOpRecord {
    int stream = 0; // 0-based; stream i carries chunk i
    StreamOp op = StreamOp::H2d;
    double startMs = 0.0; // from the run's first operation's start
    double endMs = 0.0;
    std::int64_t bytes = 0; // the chunk's bytes
    int channel = -1;       // the hardware channel CUPTI names for a copy; -1 when unknown
};

struct StreamsRun {
    int streams = 1;
    double totalMs = 0.0; // median of the timed runs (CUDA events around the whole run)
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    std::vector<StreamsOpRecord> timeline;
};

struct StreamsMeasurement {
    std::string deviceName;
    int asyncEngineCount = 0;
    bool concurrentKernels = false;
    std::int64_t bytes = 0;
    int work = 0;
    int repetitions = 0;
    StreamIssueOrder order = StreamIssueOrder::PerStream;
    /// "cupti_activity" (CUPTI's records of when each copy and kernel ran on the GPU) or
    /// "cuda_events" (events recorded around each operation in its stream), and why.
    std::string timelineSource;
    std::string timelineNote;
    /// The one-stream run's stages: medians of each operation's duration.
    StreamStageTimes stages;
    std::vector<StreamsRun> runs; // ascending stream counts; the first is 1

    /// The run over `streams` streams, or null.
    const StreamsRun* run(int streams) const;
    /// The one-stream run's median over `measured`'s: its speed-up (0 without a one-stream run).
    double speedup(const StreamsRun& measured) const;
};

/// The stream counts a request measures: its list (sorted, without repeats) with 1 added, the
/// sequential baseline every speed-up is taken against.
std::vector<int> streamsCounts(const StreamsOptions& options);

/// Chunk i of `streams` over `elements` floats: [first, first + count).
struct StreamsChunk {
    std::int64_t first = 0;
    std::int64_t count = 0;
};
StreamsChunk streamsChunk(std::int64_t elements, int streams, int i);

/// measure_streams' result object (docs/protocol.md): each run with its speed-up and the model's
/// prediction, the stages, the speed-up limit and the model's statement.
nlohmann::json toJson(const StreamsMeasurement& measurement);

/// Reads measure_streams' result object at `pointer`. Required: "asyncEngineCount" (0 to 64),
/// "stages" (h2dMs, kernelMs, d2hMs, none negative), a "runs" array holding the one-stream run,
/// each run's "streams" (1 to 64) and positive "totalMs", each operation's "op", "stream" (below
/// its run's count), "startMs" and "endMs" (not before the start). Other absent fields keep their
/// defaults; a field of the wrong type is a FileFormat error naming its JSON pointer. Runs come
/// back in ascending stream counts; the model's numbers are the model's, not read.
Result<StreamsMeasurement> streamsMeasurementFromJson(const nlohmann::json& value,
                                                      const std::string& pointer = "");
/// The same from text, through the core's guarded reader (size, nesting, duplicate keys).
Result<StreamsMeasurement> streamsMeasurementFromJsonText(std::string_view text);

/// The experiment's traits: what the experiment table (experiments.h), the probe's runners and the
/// app's registry know of it by type.
struct StreamsExperiment {
    static constexpr std::string_view key = "streams";
    using Options = StreamsOptions;
    using Measurement = StreamsMeasurement;
    /// The measure_streams request's "options" (absent: the defaults; all fields optional: bytes,
    /// streams, repetitions, work, order); an InvalidValue Error whose `where` is the field's JSON
    /// pointer ("/options/...").
    static Result<Options> optionsFromJson(const nlohmann::json& request);
    static nlohmann::json toJson(const Measurement& measurement) {
        return experiments::toJson(measurement);
    }
    static Result<Measurement> measurementFromJsonText(std::string_view text) {
        return streamsMeasurementFromJsonText(text);
    }
    /// `warpscope-probe streams [options]`.
    static ExperimentCommandLine commandLine();
};

} // namespace warpscope::experiments
