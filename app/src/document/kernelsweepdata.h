// KernelSweepData: a whole kernel swept over one of its parameters or over its block shape, and
// the grid model's sectors (and shared wavefronts) at every point. The points are what the probe's
// measure_kernel runs as one sweep (docs/protocol.md); the sweep view draws the model beside the
// measured bandwidth. Plain data computed through the core, so tests need no plot.
#pragma once

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::app {

/// Parameter name -> value: every parameter of the kernel at one point of the sweep.
using KernelSweepPoint = std::map<std::string, std::int64_t>;

/// What a kernel sweep varies: one parameter, or the block shape (the parameters the block's
/// components name, "bx" and "by" for Table 4-11's transpose).
struct KernelSweepAxis {
    bool blockShape = false;
    std::string parameter; // when !blockShape

    bool operator==(const KernelSweepAxis&) const = default;
};

/// At most this many points in one kernel sweep (each is a whole kernel on the GPU).
inline constexpr int kMaxKernelSweepPoints = 64;

struct KernelSweepPlan {
    KernelSweepAxis axis;
    std::vector<KernelSweepPoint> points;
    QStringList labels; // "(32, 16)", "offset 11"
};

/// The parameters the block's x, y and z name, one per component ("" where the component is not
/// a bare parameter name): {"bx", "by", ""} for Table 4-11's transpose, {"t", "t", ""} for the
/// tiled one. Empty when no component names a parameter (no block-shape sweep then).
std::vector<std::string> blockShapeParameters(const Kernel& kernel);

/// The axes this kernel can be swept on: the block shape (when its block names a parameter) and
/// every parameter, in that order.
std::vector<KernelSweepAxis> kernelSweepAxes(const Kernel& kernel);
QString axisName(const KernelSweepAxis& axis);

/// The values a new sweep starts from, as text the user can edit: the preset's own sweep values
/// where it lists them (the notes' offsets 0, 11, 128; the block shapes 32, 16, 8 by 32, 16, 8),
/// else a few values of the parameter's range, or the usual block shapes.
QString defaultKernelSweepValues(const Kernel& kernel, const std::vector<KernelSweep>& presetSweeps,
                                 const KernelSweepAxis& axis);

/// Read the values text of a sweep ("0, 11, 128", or block shapes "32x32, 32x16") into the
/// points to run: the kernel's parameter values with the swept ones replaced. Errors name the
/// item that is wrong and why.
std::optional<KernelSweepPlan> planKernelSweep(const Kernel& kernel, const KernelSweepAxis& axis,
                                               const QString& valuesText, QString* error);

/// `kernel` with the parameter values of `point` applied.
Kernel kernelAtPoint(const Kernel& kernel, const KernelSweepPoint& point);

struct KernelSweepData {
    KernelSweepPlan plan;
    /// The grid model's global sectors (loads and stores, all accesses) and shared wavefronts
    /// over the whole grid, per point; NaN where the kernel is not valid at the point.
    QVector<double> modelSectors;
    QVector<double> modelWavefronts;
    bool hasShared = false;
    /// Kernels with a constant access: the grid model's constant-cache requests per point (the
    /// warps' distinct addresses, served one after another), NaN where not valid. The sweep then
    /// draws these beside the measured time.
    QVector<double> modelConstantAddresses;
    bool hasConstant = false;
    /// Per point: empty, or why the kernel is not valid there.
    QStringList errors;
};

/// The grid model at every point of `plan` (one predictGrid each). Stops early, with what it
/// has, when `cancelled` becomes true; `progress` is called with points done and total.
KernelSweepData computeKernelSweep(const Kernel& kernel, const KernelSweepPlan& plan,
                                   const std::atomic<bool>* cancelled = nullptr,
                                   const std::function<void(int, int)>& progress = {});

} // namespace warpscope::app
