// ParameterPanel: slider + spin box rows, kept in step with each other and the document.
#include "panels/parameterpanel.h"

#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace warpscope::app {

namespace {

// Sliders and spin boxes hold ints; the core's parameters are 64-bit. Ranges beyond int are cut
// to int here (the core still checks every value).
int toWidgetInt(std::int64_t value) {
    return static_cast<int>(std::clamp<std::int64_t>(value, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}

bool sameDeclarations(const std::vector<Parameter>& a, const std::vector<Parameter>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].name != b[i].name || a[i].minimum != b[i].minimum ||
            a[i].maximum != b[i].maximum) {
            return false;
        }
    }
    return true;
}

} // namespace

ParameterPanel::ParameterPanel(QWidget* parent)
    : QWidget(parent), m_grid(new QGridLayout(this)),
      m_empty(new QLabel(tr("This pattern declares no parameters."), this)) {
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
    m_empty->setEnabled(false);
    m_grid->addWidget(m_empty, 0, 0, 1, 4);
}

QSlider* ParameterPanel::slider(int index) const {
    return index >= 0 && index < rowCount() ? m_rows[static_cast<std::size_t>(index)].slider
                                            : nullptr;
}

QSpinBox* ParameterPanel::spinBox(int index) const {
    return index >= 0 && index < rowCount() ? m_rows[static_cast<std::size_t>(index)].spin
                                            : nullptr;
}

void ParameterPanel::queueDragValue(int index, int value) {
    if (m_pendingIndex >= 0 && m_pendingIndex != index) {
        applyPendingDrag(); // another slider's value first, in the order the hand made them
    }
    m_pendingIndex = index;
    m_pendingValue = value;
    if (!m_applyPosted) {
        m_applyPosted = true;
        // A posted call runs after the mouse moves already delivered to the event loop and
        // before the window's repaint (posted at low priority): one edit for all of them.
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_applyPosted = false;
                applyPendingDrag();
            },
            Qt::QueuedConnection);
    }
}

void ParameterPanel::applyPendingDrag() {
    if (m_pendingIndex < 0) {
        return;
    }
    const int index = m_pendingIndex;
    m_pendingIndex = -1;
    emit valueEdited(index, m_pendingValue);
}

void ParameterPanel::rebuild(const std::vector<Parameter>& parameters) {
    m_pendingIndex = -1; // the slider it was for is gone
    for (Row& row : m_rows) {
        delete row.name;
        delete row.slider;
        delete row.spin;
        delete row.range;
    }
    m_rows.clear();
    m_empty->setVisible(parameters.empty());
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const Parameter& p = parameters[i];
        Row row;
        const QString name = QString::fromStdString(p.name);
        row.name = new QLabel(name, this);
        row.name->setToolTip(tr("Parameter %1 of the expressions").arg(name));
        row.slider = new QSlider(Qt::Horizontal, this);
        row.slider->setObjectName(QStringLiteral("parameterSlider_") + name);
        row.spin = new QSpinBox(this);
        row.spin->setObjectName(QStringLiteral("parameterSpin_") + name);
        row.range = new QLabel(this);
        row.range->setEnabled(false);
        const bool hasRange = p.maximum > p.minimum;
        if (hasRange) {
            row.slider->setRange(toWidgetInt(p.minimum), toWidgetInt(p.maximum));
            row.spin->setRange(toWidgetInt(p.minimum), toWidgetInt(p.maximum));
            row.range->setText(QStringLiteral("%1 … %2").arg(p.minimum).arg(p.maximum));
        } else {
            // No declared range: the spin box takes any value, the slider has nothing to span.
            row.slider->setEnabled(false);
            row.spin->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
            row.range->setText(tr("no range"));
        }
        row.slider->setPageStep(std::max(1, toWidgetInt((p.maximum - p.minimum) / 16)));
        row.name->setBuddy(row.spin);
        const int index = static_cast<int>(i);
        connect(row.slider, &QSlider::valueChanged, this, [this, index](int value) {
            if (m_updating) {
                return;
            }
            m_updating = true;
            m_rows[static_cast<std::size_t>(index)].spin->setValue(value);
            m_updating = false;
            if (m_rows[static_cast<std::size_t>(index)].slider->isSliderDown()) {
                queueDragValue(index, value);
            } else {
                emit valueEdited(index, value);
            }
        });
        // The hand lets go: its last value is edited at once.
        connect(row.slider, &QSlider::sliderReleased, this, &ParameterPanel::applyPendingDrag);
        connect(row.spin, &QSpinBox::valueChanged, this, [this, index](int value) {
            if (m_updating) {
                return;
            }
            m_updating = true;
            m_rows[static_cast<std::size_t>(index)].slider->setValue(value);
            m_updating = false;
            emit valueEdited(index, value);
        });
        const int gridRow = static_cast<int>(i) + 1;
        m_grid->addWidget(row.name, gridRow, 0);
        m_grid->addWidget(row.slider, gridRow, 1);
        m_grid->addWidget(row.spin, gridRow, 2);
        m_grid->addWidget(row.range, gridRow, 3);
        m_rows.push_back(row);
    }
    m_declared = parameters;
}

void ParameterPanel::setParameters(const std::vector<Parameter>& parameters) {
    if (!sameDeclarations(parameters, m_declared) || m_rows.size() != parameters.size()) {
        rebuild(parameters);
    }
    m_updating = true;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const int value = toWidgetInt(parameters[i].value);
        if (m_rows[i].slider->value() != value) {
            m_rows[i].slider->setValue(value);
        }
        if (m_rows[i].spin->value() != value) {
            m_rows[i].spin->setValue(value);
        }
    }
    m_updating = false;
}

} // namespace warpscope::app
