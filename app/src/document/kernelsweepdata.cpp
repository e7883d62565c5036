// Kernel sweeps: their axes, default values, the values text read into points, and the grid
// model at every point.
#include "document/kernelsweepdata.h"

#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace warpscope::app {

namespace {

const Parameter* findParameter(const Kernel& kernel, const std::string& name) {
    for (const Parameter& p : kernel.parameters) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

const KernelSweep* findSweep(const std::vector<KernelSweep>& sweeps, const std::string& name) {
    for (const KernelSweep& s : sweeps) {
        if (s.parameter == name && !s.values.empty()) {
            return &s;
        }
    }
    return nullptr;
}

QString joinValues(const std::vector<std::int64_t>& values) {
    QStringList parts;
    for (std::int64_t v : values) {
        parts << QString::number(v);
    }
    return parts.join(QStringLiteral(", "));
}

/// The distinct block parameters, in x, y, z order, and how many components the block-shape
/// text gives (up to the last component that names a parameter).
struct BlockShapeLayout {
    std::vector<std::string> perComponent; // "" where not a parameter
    int components = 0;
};

BlockShapeLayout blockLayout(const Kernel& kernel) {
    BlockShapeLayout layout;
    layout.perComponent = blockShapeParameters(kernel);
    for (int d = 0; d < static_cast<int>(layout.perComponent.size()); ++d) {
        if (!layout.perComponent[static_cast<std::size_t>(d)].empty()) {
            layout.components = d + 1;
        }
    }
    return layout;
}

QString shapeLabel(const std::vector<std::int64_t>& shape) {
    QStringList parts;
    for (std::int64_t v : shape) {
        parts << QString::number(v);
    }
    return parts.size() == 1
               ? parts.front()
               : QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

} // namespace

std::vector<std::string> blockShapeParameters(const Kernel& kernel) {
    std::vector<std::string> names(3);
    bool any = false;
    for (std::size_t d = 0; d < 3; ++d) {
        const std::string& text = kernel.launch.block[d];
        const auto trimmed = QString::fromStdString(text).trimmed().toStdString();
        if (findParameter(kernel, trimmed) != nullptr) {
            names[d] = trimmed;
            any = true;
        }
    }
    return any ? names : std::vector<std::string>{};
}

std::vector<KernelSweepAxis> kernelSweepAxes(const Kernel& kernel) {
    std::vector<KernelSweepAxis> axes;
    if (!blockShapeParameters(kernel).empty()) {
        axes.push_back(KernelSweepAxis{true, {}});
    }
    for (const Parameter& p : kernel.parameters) {
        axes.push_back(KernelSweepAxis{false, p.name});
    }
    return axes;
}

QString axisName(const KernelSweepAxis& axis) {
    return axis.blockShape ? QObject::tr("block shape") : QString::fromStdString(axis.parameter);
}

QString defaultKernelSweepValues(const Kernel& kernel, const std::vector<KernelSweep>& presetSweeps,
                                 const KernelSweepAxis& axis) {
    if (!axis.blockShape) {
        if (const KernelSweep* sweep = findSweep(presetSweeps, axis.parameter)) {
            return joinValues(sweep->values);
        }
        const Parameter* p = findParameter(kernel, axis.parameter);
        if (p == nullptr) {
            return {};
        }
        // A few values of the declared range (at most nine), the current one among them.
        std::set<std::int64_t> values{p->value};
        if (p->maximum > p->minimum) {
            const std::int64_t span = p->maximum - p->minimum;
            for (int i = 0; i <= 8; ++i) {
                values.insert(p->minimum + span / 8 * i);
            }
            values.insert(p->maximum);
        }
        std::vector<std::int64_t> list(values.begin(), values.end());
        if (list.size() > 9) {
            list.resize(9);
        }
        return joinValues(list);
    }
    const BlockShapeLayout layout = blockLayout(kernel);
    if (layout.components == 0) {
        return {};
    }
    // Per component: the preset's sweep of its parameter, else the usual sizes (one dimension:
    // 128 to 1024 threads; two: 32, 16, 8 each way).
    std::vector<std::vector<std::int64_t>> choices;
    for (int d = 0; d < layout.components; ++d) {
        const std::string& name = layout.perComponent[static_cast<std::size_t>(d)];
        if (name.empty()) {
            choices.push_back({1});
        } else if (const KernelSweep* sweep = findSweep(presetSweeps, name)) {
            choices.push_back(sweep->values);
        } else if (layout.components == 1) {
            choices.push_back({128, 256, 512, 1024});
        } else {
            choices.push_back({32, 16, 8});
        }
    }
    // A parameter named by two components (the tiled transpose's square t by t): its values once.
    const bool square = layout.components == 2 && layout.perComponent[0] == layout.perComponent[1];
    QStringList shapes;
    if (square) {
        for (std::int64_t v : choices[0]) {
            shapes << QStringLiteral("%1x%1").arg(v);
        }
    } else if (layout.components == 1) {
        for (std::int64_t v : choices[0]) {
            shapes << QString::number(v);
        }
    } else {
        // x outer, y inner: Table 4-11's order (32, 32), (32, 16), ... (8, 8).
        for (std::int64_t x : choices[0]) {
            for (std::int64_t y : choices[1]) {
                if (layout.components == 2) {
                    shapes << QStringLiteral("%1x%2").arg(x).arg(y);
                } else {
                    for (std::int64_t z : choices[2]) {
                        shapes << QStringLiteral("%1x%2x%3").arg(x).arg(y).arg(z);
                    }
                }
            }
        }
    }
    return shapes.join(QStringLiteral(", "));
}

Kernel kernelAtPoint(const Kernel& kernel, const KernelSweepPoint& point) {
    Kernel at = kernel;
    for (Parameter& p : at.parameters) {
        if (const auto it = point.find(p.name); it != point.end()) {
            p.value = it->second;
            p.minimum = std::min(p.minimum, p.value);
            p.maximum = std::max(p.maximum, p.value);
        }
    }
    return at;
}

std::optional<KernelSweepPlan> planKernelSweep(const Kernel& kernel, const KernelSweepAxis& axis,
                                               const QString& valuesText, QString* error) {
    auto fail = [&](const QString& message) -> std::optional<KernelSweepPlan> {
        if (error != nullptr) {
            *error = message;
        }
        return std::nullopt;
    };
    KernelSweepPlan plan;
    plan.axis = axis;
    KernelSweepPoint base;
    for (const Parameter& p : kernel.parameters) {
        base[p.name] = p.value;
    }
    const QStringList items =
        valuesText.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (items.isEmpty()) {
        return fail(QObject::tr("No values to sweep: list them, separated by commas."));
    }
    if (items.size() > kMaxKernelSweepPoints) {
        return fail(QObject::tr("%1 values: a kernel sweep takes at most %2 (each is a whole "
                                "kernel on the GPU).")
                        .arg(items.size())
                        .arg(kMaxKernelSweepPoints));
    }
    const BlockShapeLayout layout = axis.blockShape ? blockLayout(kernel) : BlockShapeLayout{};
    if (axis.blockShape && layout.components == 0) {
        return fail(QObject::tr("This kernel's block names no parameter, so its shape cannot be "
                                "swept; sweep a parameter instead."));
    }
    if (!axis.blockShape && findParameter(kernel, axis.parameter) == nullptr) {
        return fail(QObject::tr("The kernel has no parameter \"%1\".")
                        .arg(QString::fromStdString(axis.parameter)));
    }
    for (int i = 0; i < items.size(); ++i) {
        const QString& item = items[i];
        const QString where = QObject::tr("value %1 (\"%2\")").arg(i + 1).arg(item);
        KernelSweepPoint point = base;
        if (!axis.blockShape) {
            bool ok = false;
            const qlonglong value = item.toLongLong(&ok);
            if (!ok) {
                return fail(QObject::tr("%1 is not an integer.").arg(where));
            }
            point[axis.parameter] = value;
            plan.labels
                << QStringLiteral("%1 %2").arg(QString::fromStdString(axis.parameter)).arg(value);
        } else {
            const QStringList parts = item.split(QLatin1Char('x'), Qt::KeepEmptyParts);
            if (parts.size() != layout.components) {
                return fail(QObject::tr("%1: a block shape here is %2 (%3), separated by 'x'.")
                                .arg(where)
                                .arg(layout.components == 1
                                         ? QObject::tr("one number")
                                         : QObject::tr("%1 numbers").arg(layout.components))
                                .arg(layout.components == 1   ? QStringLiteral("256")
                                     : layout.components == 2 ? QStringLiteral("32x8")
                                                              : QStringLiteral("8x8x4")));
            }
            std::vector<std::int64_t> shape;
            for (int d = 0; d < layout.components; ++d) {
                bool ok = false;
                const qlonglong value = parts[d].toLongLong(&ok);
                if (!ok || value < 1) {
                    return fail(
                        QObject::tr("%1: \"%2\" is not a positive integer.").arg(where, parts[d]));
                }
                if (value > kMaxBlockDim[static_cast<std::size_t>(d)]) {
                    return fail(QObject::tr("%1: block %2 is at most %3.")
                                    .arg(where)
                                    .arg(QLatin1Char("xyz"[d]))
                                    .arg(kMaxBlockDim[static_cast<std::size_t>(d)]));
                }
                shape.push_back(value);
                const std::string& name = layout.perComponent[static_cast<std::size_t>(d)];
                const std::int64_t fixed = name.empty() ? -1 : point[name];
                if (name.empty()) {
                    // A component that is not a parameter keeps its value: 1 is the only shape
                    // that says so (anything else cannot be run).
                    if (value != 1) {
                        return fail(QObject::tr("%1: block component %2 is fixed at \"%3\" in "
                                                "this kernel.")
                                        .arg(where)
                                        .arg(QLatin1Char("xyz"[d]))
                                        .arg(QString::fromStdString(
                                            kernel.launch.block[static_cast<std::size_t>(d)])));
                    }
                } else if (d > 0 &&
                           std::find(layout.perComponent.begin(), layout.perComponent.begin() + d,
                                     name) != layout.perComponent.begin() + d &&
                           fixed != value) {
                    return fail(QObject::tr("%1: the block's components are all \"%2\" here, so "
                                            "they must be equal.")
                                    .arg(where, QString::fromStdString(name)));
                } else {
                    point[name] = value;
                }
            }
            std::int64_t threads = 1;
            for (std::int64_t v : shape) {
                threads *= v;
            }
            if (threads > kMaxThreadsPerBlock) {
                return fail(QObject::tr("%1: %2 threads, more than a block holds (%3).")
                                .arg(where)
                                .arg(threads)
                                .arg(kMaxThreadsPerBlock));
            }
            plan.labels << shapeLabel(shape);
        }
        plan.points.push_back(std::move(point));
    }
    return plan;
}

KernelSweepData computeKernelSweep(const Kernel& kernel, const KernelSweepPlan& plan,
                                   const std::atomic<bool>* cancelled,
                                   const std::function<void(int, int)>& progress) {
    KernelSweepData data;
    data.plan = plan;
    for (const KernelAccess& access : kernel.accesses) {
        // An async copy writes shared memory: its wavefronts count with the shared accesses'.
        data.hasShared = data.hasShared || access.kind.space == MemorySpace::Shared ||
                         access.kind.op == AccessOp::CopyAsync;
        data.hasConstant = data.hasConstant || access.kind.space == MemorySpace::Constant;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const int total = static_cast<int>(plan.points.size());
    for (int i = 0; i < total; ++i) {
        if (cancelled != nullptr && cancelled->load()) {
            break;
        }
        double sectors = nan;
        double wavefronts = nan;
        double constantAddresses = nan;
        QString error;
        auto resolved =
            resolveKernel(kernelAtPoint(kernel, plan.points[static_cast<std::size_t>(i)]));
        if (!resolved) {
            error = QString::fromStdString(resolved.error().describe());
        } else {
            GridOptions options;
            options.cancelled = cancelled;
            options.worstWarpCount = 0;
            auto prediction = predictGrid(resolved.value(), options);
            if (!prediction) {
                error = QString::fromStdString(prediction.error().describe());
            } else {
                sectors = 0;
                wavefronts = 0;
                constantAddresses = 0;
                for (std::size_t a = 0; a < prediction->accesses.size(); ++a) {
                    const GridAccessPrediction& p = prediction->accesses[a];
                    if (kernel.accesses[a].kind.space == MemorySpace::Constant) {
                        constantAddresses += static_cast<double>(p.constantAddresses);
                    } else if (usesSectors(kernel.accesses[a].kind.space)) {
                        sectors += static_cast<double>(p.sectors);
                    }
                    if (kernel.accesses[a].kind.space == MemorySpace::Shared ||
                        kernel.accesses[a].kind.op == AccessOp::CopyAsync) {
                        wavefronts += static_cast<double>(p.wavefronts);
                    }
                }
            }
        }
        if (cancelled != nullptr && cancelled->load()) {
            break;
        }
        data.modelSectors.push_back(sectors);
        data.modelWavefronts.push_back(data.hasShared ? wavefronts : nan);
        data.modelConstantAddresses.push_back(data.hasConstant ? constantAddresses : nan);
        data.errors << error;
        if (progress) {
            progress(i + 1, total);
        }
    }
    return data;
}

} // namespace warpscope::app
