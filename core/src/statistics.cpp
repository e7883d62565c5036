// The one statistics helper (warpscope/statistics.h).
#include "warpscope/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace warpscope {

SampleSummary summarizeSamples(std::vector<double> samples) {
    SampleSummary summary;
    if (samples.empty()) {
        return summary;
    }
    std::sort(samples.begin(), samples.end());
    summary.samples = static_cast<int>(samples.size());
    summary.min = samples.front();
    summary.max = samples.back();
    const std::size_t mid = samples.size() / 2;
    summary.median =
        samples.size() % 2 != 0 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
    return summary;
}

double median(std::vector<double> values) {
    return summarizeSamples(std::move(values)).median;
}

double percentile(std::vector<double> values, double fraction) {
    if (values.empty()) {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    const double clamped = std::clamp(fraction, 0.0, 1.0);
    // Nearest rank; halves round up (the position is never negative).
    const auto index =
        static_cast<std::size_t>(std::llround(clamped * static_cast<double>(values.size() - 1)));
    return values[std::min(index, values.size() - 1)];
}

} // namespace warpscope
