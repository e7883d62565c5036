// harnessModes(): the benchmark, GPU benchmark and screenshot runners behind one struct.
#include "harness/harnessmodes.h"

#include "harness/benchmarkrunner.h"
#include "harness/geometryreport.h"
#include "harness/gpubenchmark.h"
#include "harness/screenshotrunner.h"

namespace warpscope::app {

HarnessModes harnessModes() {
    HarnessModes modes;
    modes.benchmark = &runBenchmark;
    modes.benchmarkGpu = &runGpuBenchmark;
    modes.screenshot = &takeScreenshot;
    modes.watchFirstFrame = &watchFirstFrame;
    modes.geometryReport = &writeGeometryReport;
    return modes;
}

} // namespace warpscope::app
