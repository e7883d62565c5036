// TilePanel: the Tile tab's fields and its view (tilepanel.h).
#include "views/tilepanel.h"

#include "views/tileview.h"
#include "views/viewscrollarea.h"

#include <warpscope/tma_layout.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace warpscope::app {

TilePanel::TilePanel(PatternDocument* document, LaneHighlight* highlight, QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("tilePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* fields = new QHBoxLayout;
    fields->setContentsMargins(8, 4, 8, 0);
    m_swizzle = new QComboBox(this);
    m_swizzle->setObjectName(QStringLiteral("tmaSwizzleBox"));
    m_swizzle->addItem(tr("No TMA load"), QString());
    for (TmaSwizzle mode :
         {TmaSwizzle::None, TmaSwizzle::Span32, TmaSwizzle::Span64, TmaSwizzle::Span128,
          TmaSwizzle::Span128Atom32, TmaSwizzle::Span128Atom32Flip8, TmaSwizzle::Span128Atom64}) {
        m_swizzle->addItem(tr("TMA, swizzle %1").arg(QString::fromLatin1(toString(mode))),
                           QString::fromLatin1(toString(mode)));
    }
    m_swizzle->setToolTip(tr("The 128B_ATOM modes came with CUDA 12.8 for compute capability "
                             "10.0; on 9.0 (H100, H200) the view says they are refused."));
    m_element = new QComboBox(this);
    m_element->setObjectName(QStringLiteral("tmaElementBox"));
    for (int bytes : {1, 2, 4, 8}) {
        m_element->addItem(tr("%1-byte elements").arg(bytes), bytes);
    }
    const auto spin = [this](const QString& name, int low, int high, int step) {
        auto* box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(low, high);
        box->setSingleStep(step);
        return box;
    };
    m_inner = spin(QStringLiteral("tmaInnerBox"), 1, 256, 8);
    m_rows = spin(QStringLiteral("tmaRowsBox"), 1, 256, 1);
    m_offset = spin(QStringLiteral("tmaOffsetBox"), 0, static_cast<int>(kTmaSharedLimitBytes), 128);
    fields->addWidget(m_swizzle);
    fields->addWidget(m_element);
    fields->addWidget(new QLabel(tr("box"), this));
    fields->addWidget(m_inner);
    fields->addWidget(new QLabel(QStringLiteral("×"), this));
    fields->addWidget(m_rows);
    fields->addWidget(new QLabel(tr("at offset"), this));
    fields->addWidget(m_offset);
    fields->addStretch(1);
    layout->addLayout(fields);
    m_view = new TileView(document, highlight);
    layout->addWidget(wrapInScrollArea(m_view, this), 1);

    for (QComboBox* box : {m_swizzle, m_element}) {
        connect(box, &QComboBox::activated, this, &TilePanel::applyFields);
    }
    for (QSpinBox* box : {m_inner, m_rows, m_offset}) {
        connect(box, &QSpinBox::valueChanged, this, &TilePanel::applyFields);
    }
    connect(m_view, &TileView::tmaLoadChanged, this, &TilePanel::syncFields);
    syncFields();
}

void TilePanel::applyFields() {
    if (m_syncing) {
        return;
    }
    const auto swizzle = parseTmaSwizzle(m_swizzle->currentData().toString().toStdString());
    if (!swizzle) {
        m_view->setTmaLoad(std::nullopt);
    } else {
        m_view->setTmaLoad(TmaTileLoad{m_element->currentData().toInt(), m_inner->value(),
                                       m_rows->value(), *swizzle, m_offset->value()});
    }
    syncFields();
}

void TilePanel::syncFields() {
    m_syncing = true;
    const auto& load = m_view->tmaLoad();
    const TmaTileLoad shown = load.value_or(TmaTileLoad{});
    {
        const QSignalBlocker blocker(m_swizzle);
        const int index =
            m_swizzle->findData(load ? QString::fromLatin1(toString(load->swizzle)) : QString());
        m_swizzle->setCurrentIndex(std::max(0, index));
    }
    {
        const QSignalBlocker blocker(m_element);
        m_element->setCurrentIndex(std::max(0, m_element->findData(shown.elementBytes)));
    }
    m_inner->setValue(shown.boxInnerElements);
    m_rows->setValue(shown.boxRows);
    m_offset->setValue(static_cast<int>(shown.smemOffset));
    for (QWidget* field : std::initializer_list<QWidget*>{m_element, m_inner, m_rows, m_offset}) {
        field->setEnabled(load.has_value());
    }
    m_syncing = false;
}

} // namespace warpscope::app
