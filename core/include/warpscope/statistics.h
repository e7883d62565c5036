// The one statistics helper for repeated timings: the median and spread the probe reports for
// every timed point (transfers, streams, L2 persistence, a pattern's latency and grid time) and
// the percentiles the app's benchmarks print. Plain C++: the probe, the app and the benchmarks
// share it.
#pragma once

#include <vector>

namespace warpscope {

/// The median and spread of a set of samples; all zero for none.
struct SampleSummary {
    int samples = 0;
    double min = 0.0;
    double max = 0.0;
    /// The middle sample, or the mean of the two middle ones for an even count.
    double median = 0.0;
};

SampleSummary summarizeSamples(std::vector<double> samples);

/// The median of `values` as SampleSummary has it; 0 for none.
double median(std::vector<double> values);

/// The sample at rank round(fraction x (count - 1)) of the sorted values (nearest rank, no
/// interpolation: a benchmark's p95 is a frame that was measured); 0 for none. `fraction` is
/// clamped to [0, 1].
double percentile(std::vector<double> values, double fraction);

} // namespace warpscope
