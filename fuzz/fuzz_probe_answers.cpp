// libFuzzer target for the app's side of the probe protocol (app/src/probeclient.cpp,
// probemeasurement.cpp, kernelmeasurement.cpp and core's readers of the answers): whatever
// warpscope-probe writes on stdout (it may run on another machine, through ssh) is cut into lines,
// read as answers and turned into the GPU description and measurements the app shows, never with a
// crash, a hang or undefined behaviour. The bytes arrive in pieces whose sizes the input picks, as
// a pipe delivers them, and the lines must not depend on where the pieces end. Seeds:
// fuzz/corpus/probe-answers/ (a probe's stdout).
#include "fuzz_check.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

namespace {

std::vector<QByteArray> splitWhole(const QByteArray& bytes) {
    warpscope::app::ProbeLineSplitter splitter;
    splitter.append(bytes);
    std::vector<QByteArray> lines;
    while (std::optional<QByteArray> line = splitter.takeLine()) {
        lines.push_back(*line);
    }
    return lines;
}

void readAnswer(const QByteArray& line, warpscope::app::GpuInfo& gpu) {
    using warpscope::app::KernelMeasurement;
    using warpscope::app::ProbeAnswerLine;
    using warpscope::app::ProbeMeasurement;
    const ProbeAnswerLine answer = ProbeAnswerLine::read(line);
    switch (answer.kind) {
    case ProbeAnswerLine::Kind::Unreadable:
        check(answer.id == -1 || answer.id >= 0);
        return;
    case ProbeAnswerLine::Kind::Progress:
        check(answer.id >= 0);
        return;
    case ProbeAnswerLine::Kind::Answer:
        break;
    }
    check(answer.id >= 0);
    if (!answer.ok) {
        check(!answer.failure.code.isEmpty());
        check(!answer.failure.message.isEmpty());
        (void)answer.failure.isNoGpu();
        return;
    }
    // Any result may be any of the answers: read it as each, as the client would for its job.
    const QDateTime date = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC);
    const warpscope::app::GpuInfo info = warpscope::app::GpuInfo::fromJson(answer.result);
    (void)info.describe();
    if (!info.name.isEmpty()) {
        gpu = info;
    }
    std::vector<ProbeMeasurement> measurements;
    measurements.push_back(ProbeMeasurement::fromProbeResult(answer.result, gpu, date));
    for (const QJsonValue& value : answer.result.value(QStringLiteral("measurements")).toArray()) {
        measurements.push_back(ProbeMeasurement::fromProbeResult(value.toObject(), gpu, date));
    }
    for (const ProbeMeasurement& m : measurements) {
        (void)m.provenance();
        (void)m.bandwidthSharePercent();
        // What a session saves of it, and reads back.
        const ProbeMeasurement back = ProbeMeasurement::fromRecorded(m.toRecorded());
        check(back.recorded);
        (void)back.provenance();
    }
    // ... and as measure_kernel's answers: read by core into the app's kernel measurement, kept
    // in the store, saved as a session saves them and read back.
    std::vector<QJsonObject> kernels{answer.result};
    for (const QJsonValue& value : answer.result.value(QStringLiteral("measurements")).toArray()) {
        kernels.push_back(value.toObject());
    }
    for (const QJsonObject& result : kernels) {
        auto kernel = KernelMeasurement::fromProbeResult(result, gpu, date);
        if (!kernel) {
            check(!kernel.error().message.empty());
            continue;
        }
        (void)kernel->globalEfficiencyPct(true);
        (void)kernel->perInstructionUnavailableReason();
        auto back = KernelMeasurement::fromJson(kernel->toJson());
        check(back.ok());
        check(back->recorded);
        check(back->counters == kernel->counters);
        check(back->kernelMs.has_value() == kernel->kernelMs.has_value());
    }
    (void)answer.result.value(QStringLiteral("source")).toString();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The first byte picks the piece sizes (1 to 64 bytes, varying), the rest is the stdout.
    if (size < 1) {
        return 0;
    }
    const unsigned pieceSeed = data[0];
    const QByteArray stdoutBytes(reinterpret_cast<const char*>(data + 1),
                                 static_cast<qsizetype>(size - 1));

    warpscope::app::ProbeLineSplitter splitter;
    std::vector<QByteArray> lines;
    qsizetype at = 0;
    unsigned piece = pieceSeed;
    while (at < stdoutBytes.size()) {
        piece = piece * 1103515245u + 12345u;
        const qsizetype length = 1 + static_cast<qsizetype>((piece >> 16) % 64u);
        splitter.append(stdoutBytes.mid(at, length));
        at += length;
        while (std::optional<QByteArray> line = splitter.takeLine()) {
            check(!line->contains('\n'));
            lines.push_back(*line);
        }
        check(splitter.pendingBytes() >= 0 && splitter.pendingBytes() <= stdoutBytes.size());
    }
    // The lines do not depend on how the bytes arrived.
    check(lines == splitWhole(stdoutBytes));

    warpscope::app::GpuInfo gpu;
    for (const QByteArray& line : lines) {
        readAnswer(line, gpu);
    }
    return 0;
}
