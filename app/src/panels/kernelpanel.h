// KernelPanel, the "Kernel" part of the pattern editor: the ordered list of accesses (add,
// remove, duplicate, move up and down, by button or key), the selected access's name and buffer,
// the buffers (name and size expression) and the launch (grid and block expressions). Selecting
// an access shows it in the pattern editor's fields and in the warp, bank and block views. A
// plain pattern shows as a kernel of one access with nothing else to edit; adding an access (or
// duplicating the one) makes it a kernel. Every change is an undoable document edit. What the grid
// model finds wrong with the whole launch (an address out of its buffer, misaligned, negative:
// KernelPrediction) is shown here too, as an error numbered as the list numbers the accesses.
#pragma once

#include <warpscope/result.h>

#include <QWidget>

#include <array>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace warpscope {
struct Kernel;
}

namespace warpscope::app {

class PatternDocument;

class KernelPanel : public QWidget {
    Q_OBJECT
public:
    explicit KernelPanel(PatternDocument* document, QWidget* parent = nullptr);

    QListWidget* accessList() const { return m_accesses; }
    QPushButton* addAccessButton() const { return m_add; }
    QPushButton* removeAccessButton() const { return m_remove; }
    QPushButton* duplicateAccessButton() const { return m_duplicate; }
    QPushButton* moveUpButton() const { return m_up; }
    QPushButton* moveDownButton() const { return m_down; }
    QLineEdit* accessLabelEdit() const { return m_label; }
    QComboBox* accessBufferBox() const { return m_buffer; }
    QTableWidget* bufferTable() const { return m_buffers; }
    QPushButton* addBufferButton() const { return m_addBuffer; }
    QPushButton* removeBufferButton() const { return m_removeBuffer; }
    /// Launch fields: 0..2 grid x, y, z; 3..5 block x, y, z.
    QLineEdit* launchEdit(int field) const;
    /// What the panel says is wrong with the kernel (a buffer, the launch, another access, a
    /// refused edit), or "" when nothing is.
    QString errorText() const;

    /// The document's error in the user's words, naming the buffer, launch field or access it is
    /// in ("buffer \"in\" size: …"); empty for errors of the selected access's expressions,
    /// which the address and active-lane fields show.
    static QString kernelErrorText(const Error& error, const Kernel& kernel, int selectedAccess);
    /// The grid model's problem with the whole launch (KernelPrediction::problemText), or "".
    QString gridProblemText() const;
    /// The 0-based access the grid problem is in (its row is marked in the list), or -1.
    int gridProblemAccess() const { return m_problemAccess; }

private:
    void syncFromDocument();
    void showError();
    void setRefusal(const QString& message);
    void bufferEdited(QTableWidgetItem* item);
    void fitAccessList();
    void showGridProblem();

    PatternDocument* m_document;
    QLabel* m_summary;
    QListWidget* m_accesses;
    QPushButton* m_add;
    QPushButton* m_remove;
    QPushButton* m_duplicate;
    QPushButton* m_up;
    QPushButton* m_down;
    QWidget* m_details; // everything below the list: shown for kernels only
    QLineEdit* m_label;
    QComboBox* m_buffer;
    QTableWidget* m_buffers;
    QPushButton* m_addBuffer;
    QPushButton* m_removeBuffer;
    std::array<QLineEdit*, 6> m_launch{};
    QLabel* m_error;
    QLabel* m_gridProblem;
    int m_problemAccess = -1;
    QString m_refusal;
    bool m_syncing = false;
};

} // namespace warpscope::app
