// TracePanel (the Trace dock): the opened trace's launches (kernel, grid, block, complete or how
// many records were dropped), the chosen launch's memory instructions as a sortable table (PC,
// SASS, source line, space, op, width, warps traced and the model's sectors or wavefronts per
// request over the traced warps, worst first, from core's summaries), a warp picker, the
// instruction's source line and "Open as Pattern". Choosing an instruction or a warp makes that
// traced warp the document's current pattern.
#pragma once

#include <QWidget>

#include <cstdint>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace warpscope::app {

class PatternDocument;
class SourcePanel;
class TraceDocument;

class TracePanel : public QWidget {
    Q_OBJECT
public:
    /// The instruction table's columns.
    enum Column { Pc, Sass, Source, Space, Op, Width, Warps, PerRequest, Counter, ColumnCount };

    TracePanel(TraceDocument* trace, PatternDocument* document, QWidget* parent = nullptr);

    QComboBox* launchPicker() const { return m_launches; }
    QLabel* launchStatus() const { return m_launchStatus; }
    QTableView* instructionTable() const { return m_table; }
    /// The table's rows as shown (sorted), over the model's rows.
    QSortFilterProxyModel* instructionModel() const { return m_proxy; }
    QComboBox* warpPicker() const { return m_warps; }
    QLabel* sourceLabel() const { return m_source; }
    QPushButton* openAsPatternButton() const { return m_openAsPattern; }
    SourcePanel* sourcePanel() const { return m_sourcePanel; }

    /// The trace instruction (index into the header's instructions) of a shown row.
    std::optional<std::size_t> instructionOfRow(int row) const;
    /// The instruction and record shown now, if any.
    std::optional<std::size_t> currentInstruction() const { return m_instruction; }
    std::optional<std::uint64_t> currentRecord() const { return m_record; }

    void selectLaunch(int launch);
    /// Select the row of trace instruction `instruction` (its first warp is shown).
    bool selectInstruction(std::size_t instruction);
    void selectWarp(int index);
    void openAsPattern();

signals:
    /// Something the user asked for cannot be shown (the window puts it in its message bar).
    void problem(const QString& message);
    /// Trace record `record` of `instruction` became the document's current pattern.
    void warpShown(std::size_t instruction, std::uint64_t record);

private:
    void rebuild();
    void fillInstructions();
    void instructionChosen();
    void showWarp();

    TraceDocument* m_trace;
    PatternDocument* m_document;
    QLabel* m_program = nullptr;
    QComboBox* m_launches = nullptr;
    QLabel* m_launchStatus = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_warps = nullptr;
    QLabel* m_source = nullptr;
    QPushButton* m_openAsPattern = nullptr;
    SourcePanel* m_sourcePanel = nullptr;
    std::optional<std::size_t> m_instruction;
    std::optional<std::uint64_t> m_record;
    bool m_filling = false;
};

} // namespace warpscope::app
