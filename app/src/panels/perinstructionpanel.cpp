// PerInstructionPanel: the recorded per-instruction table as a collapsible section
// (perinstructionpanel.h).
#include "panels/perinstructionpanel.h"

#include "document/patterndocument.h"
#include "gpu/kernelmeasurement.h"
#include "panels/perinstructionmodel.h"
#include "panels/presetpicker.h"

#include <warpscope/kernel_preset.h>

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace warpscope::app {

namespace {

/// A table that asks for the height of its rows (at most kShownRows of them; more scroll) and
/// makes do with three, so the dock's other tables keep their room on a small screen.
class RowsTableView : public QTableView {
public:
    using QTableView::QTableView;
    static constexpr int kShownRows = 6;

    int heightFor(int rows) const {
        return horizontalHeader()->sizeHint().height() +
               rows * verticalHeader()->defaultSectionSize() + 2 * frameWidth() + 2;
    }
    QSize sizeHint() const override {
        const int rows = model() != nullptr ? std::min(model()->rowCount(), kShownRows) : 0;
        return {QTableView::sizeHint().width(), heightFor(rows)};
    }
    QSize minimumSizeHint() const override {
        return {QTableView::minimumSizeHint().width(), heightFor(3)};
    }
};

/// The kernel preset the document shows ("kernel:ID"), or empty.
QString currentKernelPreset(const PatternDocument& document) {
    const QString id = document.presetId();
    const QLatin1String prefix(kKernelPresetPrefix);
    return id.startsWith(prefix) ? id.mid(prefix.size()) : QString();
}

} // namespace

PerInstructionPanel::PerInstructionPanel(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_recording(&shippedPerInstructionRecording()),
      m_model(new PerInstructionModel(this)), m_toggle(new QToolButton(this)),
      m_source(new QLabel(this)), m_table(new RowsTableView(this)) {
    setObjectName(QStringLiteral("perInstructionPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_toggle->setObjectName(QStringLiteral("perInstructionToggle"));
    m_toggle->setText(tr("Per instruction: the model, the instruction and the hardware"));
    m_toggle->setCheckable(true);
    m_toggle->setChecked(true);
    m_toggle->setArrowType(Qt::DownArrow);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setAutoRaise(true);
    connect(m_toggle, &QToolButton::toggled, this, [this](bool open) { setExpanded(open); });

    m_source->setObjectName(QStringLiteral("perInstructionSource"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table->setObjectName(QStringLiteral("perInstructionTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);

    layout->addWidget(m_toggle);
    layout->addWidget(m_source);
    layout->addWidget(m_table);

    connect(m_document, &PatternDocument::patternChanged, this, &PerInstructionPanel::refresh);
    refresh();
}

void PerInstructionPanel::setRecording(const PerInstructionRecording* recording) {
    m_recording = recording;
    m_model->setRecording(recording);
    refresh();
}

void PerInstructionPanel::setKernelMeasurementStore(const KernelMeasurementStore* store) {
    m_store = store;
    connect(store, &KernelMeasurementStore::changed, this, &PerInstructionPanel::refresh);
    refresh();
}

void PerInstructionPanel::setConnectedGpu(const QString& name) {
    if (name != m_connectedGpu) {
        m_connectedGpu = name;
        refresh();
    }
}

const KernelMeasurement* PerInstructionPanel::currentMeasurement() const {
    const QString kernel = currentKernelPreset(*m_document);
    if (m_store == nullptr || kernel.isEmpty() || !m_document->kernel()) {
        return nullptr;
    }
    KernelPoint point;
    for (const Parameter& parameter : m_document->kernel()->parameters) {
        point[parameter.name] = parameter.value;
    }
    const KernelMeasurement* m = m_store->find(kernel, point);
    // Only the kernel as measured: an edited access list is another kernel.
    if (m == nullptr || m->accesses.size() != m_document->kernel()->accesses.size()) {
        return nullptr;
    }
    return m;
}

bool PerInstructionPanel::isExpanded() const {
    return m_toggle->isChecked();
}

void PerInstructionPanel::setExpanded(bool expanded) {
    if (m_toggle->isChecked() != expanded) {
        m_toggle->setChecked(expanded); // comes back here through toggled
        return;
    }
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_source->setVisible(expanded);
    m_table->setVisible(expanded && m_model->hasRows());
}

void PerInstructionPanel::refresh() {
    // A plain pattern is no kernel: the section gives its room back to the metrics above it.
    setHidden(!m_document->kernel().has_value());
    const QString kernel = currentKernelPreset(*m_document);
    m_model->setKernel(kernel);
    const KernelMeasurement* measured = currentMeasurement();
    if (measured != nullptr && !measured->perInstructionRows.empty()) {
        const QString toolTip = livePerInstructionToolTip(*measured);
        m_model->setLiveRows(measured->perInstructionRows, toolTip);
        m_source->setText(livePerInstructionLabel(*measured));
        m_source->setToolTip(toolTip);
        m_table->setToolTip(toolTip);
        m_table->setMaximumHeight(m_table->sizeHint().height());
        m_table->updateGeometry();
        setExpanded(isExpanded());
        return;
    }
    m_model->setLiveRows({}, QString());
    const QString toolTip = perInstructionToolTip(*m_recording);
    // Asked for on this GPU and not measured: why, before whatever is shown instead.
    QString notMeasured;
    if (measured != nullptr && measured->perInstruction.has_value()) {
        notMeasured = tr("Per-instruction counts were not measured on %1: %2. ")
                          .arg(measured->gpuName, measured->perInstructionUnavailableReason());
    }
    if (!m_recording->error.isEmpty()) {
        m_source->setText(
            tr("The recorded per-instruction rows could not be read: %1").arg(m_recording->error));
        m_source->setToolTip(QString());
    } else if (!m_model->hasRows()) {
        m_source->setText(notMeasured +
                          noPerInstructionRowsMessage(m_document->kernel().has_value()));
        m_source->setToolTip(QString());
    } else {
        QString text = notMeasured + recordedPerInstructionLabel(*m_recording, m_connectedGpu);
        const KernelPreset* preset = findKernelPreset(kernel.toStdString());
        if (preset != nullptr && m_document->kernel() &&
            !(*m_document->kernel() == preset->kernel)) {
            text += tr(" The kernel has been edited since: these are the preset's counts.");
        }
        m_source->setText(text);
        m_source->setToolTip(toolTip);
    }
    m_table->setToolTip(toolTip);
    m_table->setMaximumHeight(m_table->sizeHint().height());
    m_table->updateGeometry();
    setExpanded(isExpanded());
}

} // namespace warpscope::app
