// The streams-and-overlap model: what the course notes reason about when they split a copy in,
// a kernel and a copy out over several CUDA streams (seed 003, "Overlapping Kernel Execution and
// Data Transfers", and the NVIDIA blog post it cites for the staged experiment). Each stream takes
// one chunk of the array through host-to-device copy, kernel and device-to-host copy. What may run
// at once depends on the device's copy engines (cudaDeviceProp::asyncEngineCount): with none,
// nothing overlaps; with one, copies overlap kernels but the two directions share the engine; with
// two or more, both directions and the kernel run at once. The model schedules the chunks on those
// engines in the order they were issued and predicts the timeline and the speed-up over one
// stream. Plain C++: the probe prints it and the app draws it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

/// One operation of a stream; the names are protocol strings ("h2d", "kernel", "d2h").
enum class StreamOp { H2d, Kernel, D2h };

const char* streamOpName(StreamOp op);
std::optional<StreamOp> streamOpFromName(std::string_view name);

/// How the host issues the chunks' operations (the blog post's two versions).
enum class StreamIssueOrder {
    PerStream, // for each stream: its copy in, its kernel, its copy out ("per_stream")
    ByStage,   // every copy in, then every kernel, then every copy out ("by_stage")
};

const char* streamIssueOrderName(StreamIssueOrder order);
std::optional<StreamIssueOrder> streamIssueOrderFromName(std::string_view name);

/// The three stages for the whole array, run one after another on one stream (milliseconds).
struct StreamStageTimes {
    double h2dMs = 0.0;
    double kernelMs = 0.0;
    double d2hMs = 0.0;

    double sumMs() const { return h2dMs + kernelMs + d2hMs; }
};

/// One operation placed on the timeline.
struct StreamSpan {
    int stream = 0; // 0-based: stream i carries chunk i
    StreamOp op = StreamOp::H2d;
    double startMs = 0.0;
    double endMs = 0.0;
};

/// The rows a timeline is drawn in: one per copy engine the overlap can use, one for compute.
/// With two or more engines: "copy engine 1 (H2D)", "copy engine 2 (D2H)", "compute"; with one:
/// "copy engine (H2D and D2H)", "compute"; with none: the same two rows, nothing overlapping.
int streamCopyRows(int asyncEngineCount);
/// The row of an operation (0-based; compute is the last row).
int streamRowOf(StreamOp op, int asyncEngineCount);
std::vector<std::string> streamRowNames(int asyncEngineCount);

struct StreamPrediction {
    std::vector<StreamSpan> spans; // in issue order
    double totalMs = 0.0;
    double sequentialMs = 0.0; // the three stages one after another on one stream
    double speedup = 1.0;      // sequentialMs / totalMs
};

/// Schedules `streams` chunks (each 1/streams of every stage, the notes' reasoning: a chunk's
/// copy takes its share of the whole copy's time) on this device's engines, in issue order: an
/// operation starts when its stream's previous operation has ended and its engine is free.
/// Engines serve their operations first in, first out. `streams` is clamped to 1..64.
StreamPrediction predictStreams(const StreamStageTimes& stages, int streams, int asyncEngineCount,
                                StreamIssueOrder order = StreamIssueOrder::PerStream);

/// The speed-up the pipeline reaches as the chunks grow many: the sum of the stages over the
/// slowest stage that cannot overlap (two or more engines: the longest stage; one engine: the
/// larger of both copies together and the kernel; none: 1).
double streamSpeedupLimit(const StreamStageTimes& stages, int asyncEngineCount);

/// The notes' statement on overlap (seed 003), for the model-only view and the slide.
const char* streamsNotesStatement();
/// What the model says for this engine count, in one sentence.
std::string streamsModelStatement(int asyncEngineCount);

/// Stage times for the model alone (no GPU): equal stages of 1 ms each, the case the notes'
/// pipeline argument pictures.
StreamStageTimes streamsExampleStages();

} // namespace warpscope
