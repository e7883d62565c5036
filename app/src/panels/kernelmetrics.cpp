// KernelMetricsSection: predicted beside measured for a whole kernel.
#include "panels/kernelmetrics.h"

#include "document/kernelprediction.h"
#include "gpu/kernelmeasurement.h"

#include <warpscope/kernel.h>

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace warpscope::app {

namespace {

/// The kernel-level counters the panel lists: gridCounterNames() and, for kernels with an async
/// copy (only they predict or measure them), copyAsyncCounterNames().
const std::vector<std::string>& panelCounterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list = gridCounterNames();
        const std::vector<std::string>& copy = copyAsyncCounterNames();
        list.insert(list.end(), copy.begin(), copy.end());
        list.emplace_back(kCopyAsyncHardwareConflicts); // measured only
        return list;
    }();
    return names;
}

QString integer(double value) {
    return QLocale::c().toString(static_cast<qlonglong>(std::llround(value)));
}

QString decimal(double value, int decimals) {
    return QLocale::c().toString(value, 'f', decimals);
}

std::optional<double> at(const std::map<std::string, double>& map, const char* name) {
    const auto it = map.find(name);
    if (it == map.end()) {
        return std::nullopt;
    }
    return it->second;
}

} // namespace

KernelMetricsSection::KernelMetricsSection(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new QTableWidget(this)) {
    setObjectName(QStringLiteral("kernelMetrics"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText); // a kernel's title and a recorded GPU name
    m_table->setObjectName(QStringLiteral("kernelMetricsTable"));
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels(
        {tr("Kernel (whole grid)"), tr("Predicted"), tr("Measured"), tr("Agreement")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    setMeasurement(QString(), nullptr);
}

QString KernelMetricsSection::agreement(double predicted, double measured) {
    if (predicted == measured) {
        return QStringLiteral("✓");
    }
    const double difference = measured - predicted;
    QString text = (difference > 0 ? QStringLiteral("+") : QString()) + integer(difference);
    if (predicted != 0) {
        const double pct = difference / predicted * 100.0;
        text += QStringLiteral(" (%1%2 %)")
                    .arg(pct > 0 ? QStringLiteral("+") : QString())
                    .arg(decimal(pct, std::abs(pct) < 10 ? 1 : 0));
    }
    return text;
}

void KernelMetricsSection::setMeasurements(
    const QString& title, const std::vector<const KernelMeasurement*>& measurements) {
    if (measurements.size() < 2) {
        setMeasurement(title, measurements.empty() ? nullptr : measurements.front());
        return;
    }
    const auto& all = measurements;
    const int n = static_cast<int>(all.size());
    m_table->setRowCount(0);
    m_table->setColumnCount(2 + n);
    QStringList headers{tr("Kernel (whole grid)"), tr("Predicted")};
    for (const KernelMeasurement* m : all) {
        // "GPU 1" over the GPU's name: two lines, so that both columns fit a narrow dock.
        headers << m->gpuLabel().replace(QStringLiteral(" · "), QStringLiteral("\n"));
    }
    m_table->setHorizontalHeaderLabels(headers);
    for (int c = 1; c < 2 + n; ++c) {
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    for (int c = 0; c < n; ++c) {
        QString tip = all[static_cast<std::size_t>(c)]->gpuName;
        if (!all[static_cast<std::size_t>(c)]->gpuUuid.isEmpty()) {
            tip += QStringLiteral("\n") + all[static_cast<std::size_t>(c)]->gpuUuid;
        }
        if (!all[static_cast<std::size_t>(c)]->driverVersion.isEmpty()) {
            tip += tr("\ndriver %1").arg(all[static_cast<std::size_t>(c)]->driverVersion);
        }
        m_table->horizontalHeaderItem(2 + c)->setToolTip(tip);
    }
    m_title->setText(tr("Kernel: %1 (%2) on %3 GPUs: the prediction beside each")
                         .arg(title, kernelPointText(all.front()->parameters))
                         .arg(n));
    const QString none = QStringLiteral("—");
    const auto add = [this, n](const QString& name, const QString& predicted,
                               const QStringList& measured) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(name));
        QStringList cells{predicted};
        cells << measured;
        for (int c = 0; c <= n; ++c) {
            auto* item = new QTableWidgetItem(c < cells.size() ? cells[c] : QString());
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, 1 + c, item);
        }
    };
    for (const std::string& counter : panelCounterNames()) {
        const char* name = counter.c_str();
        std::optional<double> predicted;
        QStringList measured;
        bool any = false;
        for (const KernelMeasurement* m : all) {
            predicted = predicted ? predicted : at(m->predicted, name);
            const auto value = m->countersMeasured ? at(m->counters, name) : std::nullopt;
            any = any || value.has_value();
            measured << (value ? integer(*value) : none);
        }
        if (!predicted && !any) {
            continue;
        }
        for (int c = 0; c < n; ++c) {
            const auto value = all[static_cast<std::size_t>(c)]->countersMeasured
                                   ? at(all[static_cast<std::size_t>(c)]->counters, name)
                                   : std::nullopt;
            if (predicted && value) {
                const QString agree = agreement(*predicted, *value);
                measured[c] += agree == QLatin1String("✓") ? QStringLiteral(" ✓")
                                                           : QStringLiteral(" (%1)").arg(agree);
            }
        }
        add(QString::fromLatin1(name), predicted ? integer(*predicted) : none, measured);
    }
    QStringList times;
    QStringList bandwidths;
    QStringList shares;
    for (const KernelMeasurement* m : all) {
        times << (m->kernelMsMedian() ? decimal(*m->kernelMsMedian(), 4) + QStringLiteral(" ms")
                                      : none);
        bandwidths << (m->effectiveBandwidthGBs
                           ? decimal(*m->effectiveBandwidthGBs, 1) + QStringLiteral(" GB/s")
                           : none);
        const std::optional<double> share =
            m->shareOfCopyBandwidthPct ? m->shareOfCopyBandwidthPct
            : m->effectiveBandwidthGBs && m->copyBandwidthGBs && *m->copyBandwidthGBs > 0
                ? std::optional<double>(*m->effectiveBandwidthGBs / *m->copyBandwidthGBs * 100.0)
                : std::nullopt;
        shares << (share ? decimal(*share, 1) + QStringLiteral(" %") : none);
    }
    add(tr("time, median of the timed launches"), none, times);
    add(tr("effective bandwidth (bytes requested / time)"), none, bandwidths);
    add(tr("share of the GPU's measured copy bandwidth"), none, shares);
    m_table->resizeRowsToContents();
}

void KernelMetricsSection::setPrediction(const QString& title, const KernelPredictionResult* result,
                                         bool busy) {
    setMeasurement(QString(), nullptr); // the four columns, empty
    if (result == nullptr || (!result->prediction && !result->problem)) {
        m_title->setText(busy ? tr("Kernel: %1: computing the whole grid…").arg(title)
                              : tr("Kernel: no whole-grid prediction (a pattern of explicit "
                                   "lane addresses is no kernel)."));
        return;
    }
    if (!result->prediction) {
        m_title->setText(tr("Kernel: %1: no whole-grid prediction. %2")
                             .arg(title, KernelPrediction::problemText(*result)));
        return;
    }
    const GridPrediction& p = *result->prediction;
    const KernelLaunch& launch = result->kernel.launch;
    const auto dims = [](const std::array<std::string, 3>& d) {
        return QStringLiteral("(%1, %2, %3)")
            .arg(QString::fromStdString(d[0]), QString::fromStdString(d[1]),
                 QString::fromStdString(d[2]));
    };
    m_title->setText(tr("Kernel: %1, grid %2 × block %3, %4 warps: predicted by the grid model "
                        "for the whole grid; no measurement of this kernel%5.")
                         .arg(title, dims(launch.grid), dims(launch.block),
                              integer(static_cast<double>(p.warps)))
                         .arg(busy ? tr(" (updating…)") : QString()));
    const QString none = QStringLiteral("—");
    const auto add = [this, &none](const QString& name, const QString& predicted) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QStringList cells = {name, predicted, none, none};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            m_table->setItem(row, c, item);
        }
    };
    // Per access, numbered as the kernel panel numbers them.
    for (std::size_t i = 0; i < p.accesses.size() && i < result->kernel.accesses.size(); ++i) {
        const KernelAccess& access = result->kernel.accesses[i];
        const GridAccessPrediction& a = p.accesses[i];
        const bool shared = access.kind.space == MemorySpace::Shared;
        const bool constant = access.kind.space == MemorySpace::Constant;
        const QString name =
            QStringLiteral("%1%2 (%3 %4, %5 B)")
                .arg(i + 1)
                .arg(access.label.empty()
                         ? QString()
                         : QStringLiteral(". %1").arg(QString::fromStdString(access.label)))
                .arg(QLatin1String(toString(access.kind.space)),
                     QLatin1String(toString(access.kind.op)))
                .arg(access.kind.widthBytes);
        add(tr("%1: %2").arg(name, shared     ? tr("wavefronts / conflicts")
                                   : constant ? tr("LDC requests / constant-cache requests")
                                              : tr("requests / sectors")),
            shared ? QStringLiteral("%1 / %2").arg(integer(static_cast<double>(a.wavefronts)),
                                                   integer(static_cast<double>(a.bankConflicts)))
            : constant
                ? QStringLiteral("%1 / %2").arg(integer(static_cast<double>(a.requests)),
                                                integer(static_cast<double>(a.constantAddresses)))
                : QStringLiteral("%1 / %2").arg(integer(static_cast<double>(a.requests)),
                                                integer(static_cast<double>(a.sectors))));
    }
    // In total: every metric of the grid model (Nsight Compute's names, warpscope__ extras).
    for (const Metric& metric : p.metrics) {
        add(QString::fromStdString(metric.name), metric.value == std::floor(metric.value)
                                                     ? integer(metric.value)
                                                     : decimal(metric.value, 2));
    }
    m_table->resizeRowsToContents();
}

void KernelMetricsSection::setMeasurement(const QString& title,
                                          const KernelMeasurement* measurement) {
    m_table->setRowCount(0);
    if (m_table->columnCount() != 4) {
        m_table->setColumnCount(4);
        m_table->setHorizontalHeaderLabels(
            {tr("Kernel (whole grid)"), tr("Predicted"), tr("Measured"), tr("Agreement")});
        for (int c = 1; c < 4; ++c) {
            m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Interactive);
        }
    }
    if (measurement == nullptr) {
        m_title->setText(tr("Kernel: no whole-kernel measurement selected (run a table on the "
                            "Notes vs GPU tab)."));
        return;
    }
    const KernelMeasurement& m = *measurement;
    m_title->setText(tr("Kernel: %1 (%2)%3")
                         .arg(title, kernelPointText(m.parameters),
                              m.gpuName.isEmpty() ? QString() : tr(" on %1").arg(m.gpuName)));
    const auto add = [this](const QString& name, const QString& predicted, const QString& measured,
                            const QString& agree) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QStringList cells = {name, predicted, measured, agree};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            m_table->setItem(row, c, item);
        }
    };
    const QString none = QStringLiteral("—");
    // Per access: the grid model's counts (the counters are kernel-wide, so no measured column).
    for (const KernelAccessMeasurement& a : m.accesses) {
        const bool shared = a.space == "shared";
        const bool constant = a.space == "constant";
        add(tr("%1 (%2 %3, %4 B): %5")
                .arg(QString::fromStdString(a.label), QString::fromStdString(a.space),
                     QString::fromStdString(a.op))
                .arg(a.width)
                .arg(shared     ? tr("wavefronts / conflicts")
                     : constant ? tr("LDC requests / constant-cache requests")
                                : tr("requests / sectors")),
            shared ? QStringLiteral("%1 / %2").arg(integer(a.wavefronts), integer(a.bankConflicts))
            : constant
                ? QStringLiteral("%1 / %2").arg(integer(a.requests), integer(a.constantAddresses))
                : QStringLiteral("%1 / %2").arg(integer(a.requests), integer(a.sectors)),
            tr("kernel-wide"), none);
        if (a.op == "copy_async") {
            add(tr("%1 (shared side, written one global line at a time): wavefronts / conflicts")
                    .arg(QString::fromStdString(a.label)),
                QStringLiteral("%1 / %2").arg(integer(a.wavefronts), integer(a.bankConflicts)),
                tr("kernel-wide"), none);
        }
    }
    // In total: every kernel-level counter (async copies' included), then the local and texture
    // counters of kernels that have such accesses (absent from both columns otherwise, so skipped),
    // and a texture read's global-load equivalent beside its texture sectors.
    std::vector<std::string> counters = panelCounterNames();
    counters.insert(counters.end(), localCounterNames().begin(), localCounterNames().end());
    counters.insert(counters.end(), textureCounterNames().begin(), textureCounterNames().end());
    counters.emplace_back("warpscope__texture_global_equivalent_sectors");
    // A constant load's: the model's LDC instructions and constant-cache requests, the GPU's two
    // counters (parameter loads included, so not predicted) and their difference, which is.
    for (const char* name : {"warpscope__constant_requests", "warpscope__constant_addresses"}) {
        counters.emplace_back(name);
    }
    counters.insert(counters.end(), constantCounterNames().begin(), constantCounterNames().end());
    counters.emplace_back("warpscope__constant_extra_requests");
    for (const std::string& counter : counters) {
        const char* name = counter.c_str();
        const auto predicted = at(m.predicted, name);
        const auto measured = m.countersMeasured ? at(m.counters, name) : std::nullopt;
        if (!predicted && !measured) {
            continue;
        }
        add(QString::fromLatin1(name), predicted ? integer(*predicted) : none,
            measured ? integer(*measured) : (m.countersMeasured ? none : tr("not measured")),
            predicted && measured ? agreement(*predicted, *measured) : none);
    }
    // DRAM: the cold footprint plus the L2 fills the grid model predicts for sectors written in
    // part (docs/models.md, "Sectors written in part").
    const auto footprint = at(m.predicted, "dram__bytes_read.sum");
    const auto dramRead =
        m.countersMeasured ? at(m.counters, "dram__bytes_read.sum") : std::nullopt;
    add(tr("DRAM bytes read (dram__bytes_read.sum): the footprint and the predicted fills"),
        footprint ? integer(*footprint) : none, dramRead ? integer(*dramRead) : none,
        footprint && dramRead && *footprint > 0
            ? tr("%1 % of the prediction").arg(decimal(*dramRead / *footprint * 100.0, 1))
            : none);
    // Sectors a store request writes only in part: an L2 that evicts one before it is complete
    // fills it from DRAM; the model predicts the fills of its rule, the GPU may fill more.
    if (const auto inPart = at(m.predicted, "warpscope__sectors_written_in_part");
        inPart && *inPart > 0) {
        const double filled = at(m.predicted, "warpscope__sectors_filled").value_or(0.0);
        add(tr("sectors written in part (%1 bytes; those L2 evicts before they are complete are "
               "read again: %2 predicted)")
                .arg(integer(*inPart * kSectorBytes), integer(filled)),
            integer(*inPart), none,
            footprint && dramRead && *dramRead > *footprint
                ? tr("reads beyond the prediction: %1 % of their bytes")
                      .arg(decimal((*dramRead - *footprint) / (*inPart * kSectorBytes) * 100.0, 1))
                : none);
    }
    if (const auto written =
            m.countersMeasured ? at(m.counters, "dram__bytes_write.sum") : std::nullopt) {
        add(QStringLiteral("dram__bytes_write.sum"), none, integer(*written), none);
    }
    if (const auto hit =
            m.countersMeasured ? at(m.counters, "l1tex__t_sector_hit_rate.pct") : std::nullopt) {
        add(tr("L1 hit rate (l1tex__t_sector_hit_rate.pct)"), none,
            decimal(*hit, 1) + QStringLiteral(" %"), none);
    }
    if (m.kernelMsMedian()) {
        add(tr("time, median of the timed launches (%1)")
                .arg(m.cold ? tr("cold: L2 flushed") : tr("warm")),
            none, decimal(*m.kernelMsMedian(), 4) + QStringLiteral(" ms"),
            m.spreadPct ? tr("spread %1 %").arg(decimal(*m.spreadPct, 1)) : none);
    }
    if (m.effectiveBandwidthGBs) {
        add(tr("effective bandwidth (bytes requested / time)"), none,
            decimal(*m.effectiveBandwidthGBs, 1) + QStringLiteral(" GB/s"), none);
    }
    if (m.shareOfCopyBandwidthPct || (m.effectiveBandwidthGBs && m.copyBandwidthGBs)) {
        const double share = m.shareOfCopyBandwidthPct.value_or(*m.effectiveBandwidthGBs /
                                                                *m.copyBandwidthGBs * 100.0);
        add(tr("share of the measured copy bandwidth%1")
                .arg(m.copyBandwidthGBs ? tr(" (%1 GB/s)").arg(decimal(*m.copyBandwidthGBs, 0))
                                        : QString()),
            none, decimal(share, 1) + QStringLiteral(" %"), none);
    }
    if (m.shareOfTheoreticalBandwidthPct ||
        (m.effectiveBandwidthGBs && m.theoreticalBandwidthGBs && *m.theoreticalBandwidthGBs > 0)) {
        const double share = m.shareOfTheoreticalBandwidthPct.value_or(
            *m.effectiveBandwidthGBs / *m.theoreticalBandwidthGBs * 100.0);
        add(tr("share of the theoretical bandwidth%1")
                .arg(m.theoreticalBandwidthGBs
                         ? tr(" (%1 GB/s)").arg(decimal(*m.theoreticalBandwidthGBs, 0))
                         : QString()),
            none, decimal(share, 1) + QStringLiteral(" %"), none);
    }
    m_table->resizeRowsToContents();
}

} // namespace warpscope::app
