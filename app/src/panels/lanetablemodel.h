// LaneTableModel: the 32 lanes as table rows (lane, thread, address, sector, line, bank), read from
// the document's evaluation. The address column is editable: typing an address turns the pattern
// into an explicit list of 32 addresses (an undoable edit).
#pragma once

#include <QAbstractTableModel>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;

class LaneTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        LaneColumn,
        ThreadColumn,
        AddressColumn,
        SectorColumn,
        LineColumn,
        BankColumn,
        ColumnCount
    };

    LaneTableModel(PatternDocument* document, LaneHighlight* highlight, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// Parse what a user typed as an address: decimal or 0x hexadecimal; empty, "-" or
    /// "inactive" make the lane inactive. Returns false for anything else.
    static bool parseAddress(const QString& text, std::optional<std::int64_t>& address);

private:
    void refresh();

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
};

} // namespace warpscope::app
