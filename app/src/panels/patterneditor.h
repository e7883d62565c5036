// PatternEditor, the contents of the "Pattern" dock: preset picker, address and active-lane
// expressions with inline errors, a slider per parameter and the table that declares them, the
// access kind, the block shape, grid shape, block index and warp index, and the model settings.
// Every change becomes an undoable document edit.
#pragma once

#include <warpscope/pattern.h>

#include <QWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace warpscope::app {

class ExpressionEdit;
class KernelPanel;
class ParameterPanel;
class ParameterTableModel;
class PatternDocument;
class PresetPicker;

class PatternEditor : public QWidget {
    Q_OBJECT
public:
    explicit PatternEditor(PatternDocument* document, QWidget* parent = nullptr);

    ExpressionEdit* addressEdit() const { return m_address; }
    ExpressionEdit* activeEdit() const { return m_active; }
    PresetPicker* presetPicker() const { return m_presets; }
    /// The kernel's accesses, buffers and launch (one access for a plain pattern).
    KernelPanel* kernelPanel() const { return m_kernel; }
    ParameterPanel* parameterPanel() const { return m_parameters; }
    QComboBox* widthBox() const { return m_width; }
    QComboBox* spaceBox() const { return m_space; }
    /// Operation (load, store, async copy, ldmatrix, stmatrix), and for ldmatrix and stmatrix the
    /// matrix count (.x1, .x2, .x4) and .trans.
    QComboBox* opBox() const { return m_op; }
    QComboBox* matricesBox() const { return m_matrices; }
    QCheckBox* transposeBox() const { return m_transpose; }
    /// Why the last change of the access kind was refused ("" if it was not).
    QString kindErrorText() const;
    QSpinBox* warpIndexBox() const { return m_warpIndex; }
    /// Grid shape (gdim) and block index (bid) boxes, axis 0, 1, 2 = x, y, z.
    QSpinBox* gridBox(int axis) const;
    QSpinBox* blockIndexBox(int axis) const;
    /// The declarations table (name, default, min, max) and its buttons.
    QTableView* parameterTable() const { return m_parameterTable; }
    ParameterTableModel* parameterTableModel() const { return m_parameterModel; }
    QPushButton* addParameterButton() const { return m_addParameter; }
    QPushButton* removeParameterButton() const { return m_removeParameter; }
    /// Why the last declaration change was refused ("" if it was not).
    QString parameterErrorText() const;
    /// The error text shown under the address field, the active-lane field or the pattern ("" if
    /// none).
    QString addressErrorText() const;
    QString activeErrorText() const;
    QString patternErrorText() const;

signals:
    /// The user picked a preset (the window loads it and may report a missing id).
    void presetRequested(const QString& id);

private:
    void syncFromDocument();
    void showError();
    void editAddress(const QString& text);
    void editActive(const QString& text);
    void editSharedAddress(const QString& text);
    void editParameter(int index, std::int64_t value);
    void editKind();
    /// editKind() for ldmatrix and stmatrix (patterneditor_matrix.cpp): refuses the expression
    /// form, and gives an explicit pattern the row lanes the matrix count needs.
    void editMatrixKind(AccessOp op);
    /// Shows the matrix fields only for ldmatrix and stmatrix (patterneditor_matrix.cpp).
    void syncMatrixFields();
    void editBlock();
    void editGrid();
    void editBlockIndex();
    void removeSelectedParameter();
    void editWarpIndex(int value);
    void editModel();

    PatternDocument* m_document;
    PresetPicker* m_presets;
    QLabel* m_caption;
    QLabel* m_title;
    KernelPanel* m_kernel;
    QGroupBox* m_patternBox;
    ExpressionEdit* m_address;
    QLabel* m_addressError;
    ExpressionEdit* m_active;
    QLabel* m_activeError;
    QLabel* m_sharedLabel;    // async copies only
    ExpressionEdit* m_shared; // async copies only: the shared side's address
    QLabel* m_sharedError;
    QLabel* m_explicitNote;
    QLabel* m_patternError;
    ParameterPanel* m_parameters;
    ParameterTableModel* m_parameterModel;
    QTableView* m_parameterTable;
    QPushButton* m_addParameter;
    QPushButton* m_removeParameter;
    QLabel* m_parameterError;
    QComboBox* m_space;
    QComboBox* m_op;
    QComboBox* m_width;
    QComboBox* m_cache;
    QComboBox* m_matrices;  // ldmatrix / stmatrix only
    QCheckBox* m_transpose; // ldmatrix / stmatrix only
    QLabel* m_kindError;
    QSpinBox* m_blockX;
    QSpinBox* m_blockY;
    QSpinBox* m_blockZ;
    QSpinBox* m_gridX;
    QSpinBox* m_gridY;
    QSpinBox* m_gridZ;
    QSpinBox* m_bidX;
    QSpinBox* m_bidY;
    QSpinBox* m_bidZ;
    QSpinBox* m_warpIndex;
    QLabel* m_warpCount;
    QComboBox* m_model;
    QComboBox* m_bankMode;
    QCheckBox* m_defaultCached;
    bool m_syncing = false;
};

} // namespace warpscope::app
