// LaneTableModel: per-lane rows from Evaluation's look-ups into the core's predictions.
#include "panels/lanetablemodel.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QApplication>
#include <QFont>
#include <QPalette>

#include <optional>

namespace warpscope::app {

LaneTableModel::LaneTableModel(PatternDocument* document, LaneHighlight* highlight, QObject* parent)
    : QAbstractTableModel(parent), m_document(document), m_highlight(highlight) {
    connect(m_document, &PatternDocument::evaluationChanged, this, &LaneTableModel::refresh);
    connect(m_highlight, &LaneHighlight::changed, this, &LaneTableModel::refresh);
}

void LaneTableModel::refresh() {
    emit dataChanged(index(0, 0), index(kWarpSize - 1, ColumnCount - 1));
}

int LaneTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kWarpSize;
}

int LaneTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LaneTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case ThreadColumn:
            return tr("threadIdx (x, y, z) and the thread's index in the block");
        case AddressColumn:
            return tr("Editable: type an address (decimal or 0x hex; empty = inactive)");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    // Short headers, so the dock shows every column (the banks too) without scrolling.
    switch (section) {
    case LaneColumn:
        return tr("Lane");
    case ThreadColumn:
        return tr("Thread · index");
    case AddressColumn:
        return tr("Address ✎");
    case SectorColumn:
        return tr("Sector");
    case LineColumn:
        return tr("Line");
    case BankColumn:
        return tr("Bank(s)");
    default:
        return {};
    }
}

Qt::ItemFlags LaneTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == AddressColumn && m_document->evaluation()) {
        flags |= Qt::ItemIsEditable;
    }
    return flags;
}

QVariant LaneTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() < 0 || index.row() >= kWarpSize) {
        return {};
    }
    const int lane = index.row();
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        return role == Qt::DisplayRole && index.column() == LaneColumn ? QVariant(lane)
                                                                       : QVariant();
    }
    const auto& address = evaluation->access.addresses[static_cast<std::size_t>(lane)];
    const bool emphasised = isLaneInMask(m_highlight->emphasisedLanes(), lane);

    if (role == Qt::BackgroundRole && emphasised) {
        QColor c = ViewColors::fromPalette(QApplication::palette()).highlight;
        c.setAlphaF(0.25f);
        return c;
    }
    if (role == Qt::FontRole && emphasised) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::ForegroundRole && !address) {
        return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
    }
    if (role == Qt::TextAlignmentRole && index.column() != ThreadColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::EditRole && index.column() == AddressColumn) {
        return address ? QString::number(*address) : QString();
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    switch (index.column()) {
    case LaneColumn:
        return lane;
    case ThreadColumn: {
        if (!evaluation->access.threads) {
            return tr("explicit");
        }
        const LaneThread& t = (*evaluation->access.threads)[static_cast<std::size_t>(lane)];
        if (!t.existsInBlock) {
            return tr("past the block's end");
        }
        return QStringLiteral("(%1, %2, %3) · %4")
            .arg(t.threadIdx.x)
            .arg(t.threadIdx.y)
            .arg(t.threadIdx.z)
            .arg(t.linearThreadIndex);
    }
    case AddressColumn:
        if (!address) {
            return tr("inactive");
        }
        return QStringLiteral("%1 (%2)").arg(*address).arg(formatAddress(*address));
    case SectorColumn:
        if (const SectorUse* sector = evaluation->sectorOfLane(lane)) {
            return formatAddress(sector->address);
        }
        return address ? QStringLiteral("—") : QString();
    case LineColumn:
        if (const LineUse* line = evaluation->lineOfLane(lane)) {
            return formatAddress(line->address);
        }
        return address ? QStringLiteral("—") : QString();
    case BankColumn: {
        const std::uint32_t banks = evaluation->banksOfLane(lane);
        if (banks == 0) {
            return address ? QStringLiteral("—") : QString();
        }
        QString text = laneListText(banks); // a set of bank numbers, written like lane ranges
        const int wavefront = evaluation->wavefrontOfLane(lane);
        if (wavefront >= 0) {
            text += tr(" · W%1").arg(wavefront + 1);
        }
        return text;
    }
    default:
        return {};
    }
}

bool LaneTableModel::parseAddress(const QString& text, std::optional<std::int64_t>& address) {
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("-") ||
        t.compare(QLatin1String("inactive"), Qt::CaseInsensitive) == 0) {
        address.reset();
        return true;
    }
    bool ok = false;
    // 0x... is hexadecimal; anything else decimal (a leading 0 is not octal here).
    const bool hex = t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive);
    const qlonglong value = hex ? t.mid(2).toLongLong(&ok, 16) : t.toLongLong(&ok, 10);
    if (!ok) {
        return false;
    }
    address = value;
    return true;
}

bool LaneTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.column() != AddressColumn || role != Qt::EditRole) {
        return false;
    }
    std::optional<std::int64_t> address;
    if (!parseAddress(value.toString(), address)) {
        return false;
    }
    m_document->setLaneAddress(index.row(), address);
    return true;
}

} // namespace warpscope::app
