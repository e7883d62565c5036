// The streams-and-overlap model (warpscope/streams.h).
#include "warpscope/streams.h"

#include <algorithm>
#include <array>

namespace warpscope {

namespace {

constexpr int kMaxStreams = 64;

/// The engine an operation queues on: 0 and 1 are copy engines, 2 is compute. With one copy
/// engine both directions queue on engine 0; with none, everything queues on engine 0 (the
/// device cannot copy while it computes).
int engineOf(StreamOp op, int asyncEngineCount) {
    if (asyncEngineCount <= 0) {
        return 0;
    }
    switch (op) {
    case StreamOp::H2d:
        return 0;
    case StreamOp::D2h:
        return asyncEngineCount >= 2 ? 1 : 0;
    case StreamOp::Kernel:
        return 2;
    }
    return 0;
}

double stageMs(const StreamStageTimes& stages, StreamOp op) {
    switch (op) {
    case StreamOp::H2d:
        return stages.h2dMs;
    case StreamOp::Kernel:
        return stages.kernelMs;
    case StreamOp::D2h:
        return stages.d2hMs;
    }
    return 0.0;
}

} // namespace

const char* streamOpName(StreamOp op) {
    switch (op) {
    case StreamOp::H2d:
        return "h2d";
    case StreamOp::Kernel:
        return "kernel";
    case StreamOp::D2h:
        return "d2h";
    }
    return "h2d";
}

std::optional<StreamOp> streamOpFromName(std::string_view name) {
    for (StreamOp op : {StreamOp::H2d, StreamOp::Kernel, StreamOp::D2h}) {
        if (name == streamOpName(op)) {
            return op;
        }
    }
    return std::nullopt;
}

const char* streamIssueOrderName(StreamIssueOrder order) {
    return order == StreamIssueOrder::ByStage ? "by_stage" : "per_stream";
}

std::optional<StreamIssueOrder> streamIssueOrderFromName(std::string_view name) {
    if (name == "per_stream") {
        return StreamIssueOrder::PerStream;
    }
    if (name == "by_stage") {
        return StreamIssueOrder::ByStage;
    }
    return std::nullopt;
}

int streamCopyRows(int asyncEngineCount) {
    return asyncEngineCount >= 2 ? 2 : 1;
}

int streamRowOf(StreamOp op, int asyncEngineCount) {
    if (op == StreamOp::Kernel) {
        return streamCopyRows(asyncEngineCount);
    }
    return op == StreamOp::D2h && asyncEngineCount >= 2 ? 1 : 0;
}

std::vector<std::string> streamRowNames(int asyncEngineCount) {
    if (asyncEngineCount >= 2) {
        return {"copy engine 1 (H2D)", "copy engine 2 (D2H)", "compute"};
    }
    return {asyncEngineCount == 1 ? "copy engine (H2D and D2H)" : "copies (no copy engine)",
            "compute"};
}

StreamPrediction predictStreams(const StreamStageTimes& stages, int streams, int asyncEngineCount,
                                StreamIssueOrder order) {
    const int n = std::clamp(streams, 1, kMaxStreams);
    StreamPrediction prediction;
    prediction.sequentialMs = stages.sumMs();
    // The issue order: per stream (H2D, kernel, D2H of chunk 0, then of chunk 1, ...) or by stage.
    std::vector<StreamSpan> issued;
    constexpr std::array<StreamOp, 3> kOps = {StreamOp::H2d, StreamOp::Kernel, StreamOp::D2h};
    if (order == StreamIssueOrder::PerStream) {
        for (int s = 0; s < n; ++s) {
            for (StreamOp op : kOps) {
                issued.push_back(StreamSpan{s, op, 0.0, 0.0});
            }
        }
    } else {
        for (StreamOp op : kOps) {
            for (int s = 0; s < n; ++s) {
                issued.push_back(StreamSpan{s, op, 0.0, 0.0});
            }
        }
    }
    // Each engine serves its queue first in, first out, in issue order; a stream runs its
    // operations in order. Walking the operations in issue order therefore places each exactly.
    std::array<double, 3> engineFree = {0.0, 0.0, 0.0};
    std::vector<double> streamFree(static_cast<std::size_t>(n), 0.0);
    for (StreamSpan& span : issued) {
        const int engine = engineOf(span.op, asyncEngineCount);
        double& stream = streamFree[static_cast<std::size_t>(span.stream)];
        span.startMs = std::max(engineFree[static_cast<std::size_t>(engine)], stream);
        span.endMs = span.startMs + stageMs(stages, span.op) / n;
        if (asyncEngineCount <= 0) {
            // No copy engine: the device copies or computes, never both.
            engineFree = {span.endMs, span.endMs, span.endMs};
        } else {
            engineFree[static_cast<std::size_t>(engine)] = span.endMs;
        }
        stream = span.endMs;
        prediction.totalMs = std::max(prediction.totalMs, span.endMs);
    }
    prediction.spans = std::move(issued);
    prediction.speedup =
        prediction.totalMs > 0.0 ? prediction.sequentialMs / prediction.totalMs : 1.0;
    return prediction;
}

double streamSpeedupLimit(const StreamStageTimes& stages, int asyncEngineCount) {
    const double sum = stages.sumMs();
    double bottleneck = sum;
    if (asyncEngineCount >= 2) {
        bottleneck = std::max({stages.h2dMs, stages.kernelMs, stages.d2hMs});
    } else if (asyncEngineCount == 1) {
        bottleneck = std::max(stages.h2dMs + stages.d2hMs, stages.kernelMs);
    }
    return bottleneck > 0.0 ? sum / bottleneck : 1.0;
}

const char* streamsNotesStatement() {
    return "The notes' best-practice summary: a kernel overlaps asynchronous copies "
           "(cudaMemcpyAsync from "
           "pinned memory) only on devices capable of concurrent copy and compute "
           "(asyncEngineCount), with the copy and the kernel in different non-default streams; "
           "different GPU architectures have different numbers of copy and kernel engines.";
}

std::string streamsModelStatement(int asyncEngineCount) {
    if (asyncEngineCount >= 2) {
        return "With " + std::to_string(asyncEngineCount) +
               " copy engines, one chunk's copy in, another's kernel and a third's copy out run "
               "at once: over many streams the time tends to the longest stage.";
    }
    if (asyncEngineCount == 1) {
        return "With one copy engine, copies overlap kernels but not each other: both copies "
               "share the engine, and chunks issued stream by stream queue a copy out before the "
               "next copy in.";
    }
    return "Without a copy engine the device copies or computes, never both: streams do not "
           "speed this up.";
}

StreamStageTimes streamsExampleStages() {
    return StreamStageTimes{1.0, 1.0, 1.0};
}

} // namespace warpscope
