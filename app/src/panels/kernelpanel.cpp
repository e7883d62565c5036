// KernelPanel: the access list, buffers and launch of the current kernel, resynchronised from the
// document after every change (undo included); each widget change is one document edit.
#include "panels/kernelpanel.h"

#include "document/kernelprediction.h"
#include "document/patterndocument.h"
#include "views/theme.h"

#include <warpscope/kernel.h>

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace warpscope::app {

namespace {

enum BufferColumn { NameColumn = 0, SizeColumn = 1 };

QString accessText(const KernelAccess& access, int index) {
    QString kind = QStringLiteral("%1 %2, %3 B")
                       .arg(QLatin1String(toString(access.kind.space)),
                            QLatin1String(toString(access.kind.op)))
                       .arg(access.kind.widthBytes);
    if ((access.kind.space == MemorySpace::Global || access.kind.space == MemorySpace::Constant ||
         access.kind.space == MemorySpace::Texture) &&
        !access.buffer.empty()) {
        kind += QStringLiteral(", %1").arg(QString::fromStdString(access.buffer));
    }
    const QString label = QString::fromStdString(access.label);
    return label.isEmpty() ? QStringLiteral("%1. %2").arg(index + 1).arg(kind)
                           : QStringLiteral("%1. %2 — %3").arg(index + 1).arg(label, kind);
}

QPushButton* makeButton(QWidget* parent, const QString& text, const QString& name,
                        const QString& tip) {
    auto* button = new QPushButton(text, parent);
    button->setObjectName(name);
    button->setToolTip(tip);
    // Five buttons share the dock's width.
    button->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    button->setMinimumWidth(button->fontMetrics().horizontalAdvance(text) + 16);
    return button;
}

/// A key that works while the access list has the focus (not in the expression fields, where
/// Delete and the arrows edit text).
void addListShortcut(QListWidget* list, const QKeySequence& key, QPushButton* button) {
    auto* action = new QAction(list);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetShortcut);
    list->addAction(action);
    QObject::connect(action, &QAction::triggered, button, [button] {
        if (button->isEnabled()) {
            button->click();
        }
    });
}

} // namespace

KernelPanel::KernelPanel(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    setObjectName(QStringLiteral("kernelPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("kernelSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_accesses = new QListWidget(this);
    m_accesses->setObjectName(QStringLiteral("accessList"));
    m_accesses->setSelectionMode(QAbstractItemView::SingleSelection);
    m_accesses->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_accesses->setTextElideMode(Qt::ElideRight);
    m_accesses->setToolTip(tr("The kernel's memory instructions in program order; the selected "
                              "one is edited below and drawn in the warp, bank and block views. "
                              "Keys: Insert adds, Delete removes, Ctrl+D duplicates, Alt+Up and "
                              "Alt+Down move."));
    layout->addWidget(m_accesses);

    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(4);
    m_add = makeButton(this, tr("Add"), QStringLiteral("addAccess"),
                       tr("Add an access after the selected one (Insert)"));
    m_remove = makeButton(this, tr("Remove"), QStringLiteral("removeAccess"),
                          tr("Remove the selected access (Delete)"));
    m_duplicate = makeButton(this, tr("Duplicate"), QStringLiteral("duplicateAccess"),
                             tr("Copy the selected access below it (Ctrl+D)"));
    m_up = makeButton(this, QStringLiteral("↑"), QStringLiteral("moveAccessUp"),
                      tr("Move the selected access one place earlier (Alt+Up)"));
    m_down = makeButton(this, QStringLiteral("↓"), QStringLiteral("moveAccessDown"),
                        tr("Move the selected access one place later (Alt+Down)"));
    m_up->setAccessibleName(tr("Move up"));
    m_down->setAccessibleName(tr("Move down"));
    for (QPushButton* button : {m_add, m_remove, m_duplicate, m_up, m_down}) {
        // The arrows take less room than the words.
        buttons->addWidget(button, button == m_up || button == m_down ? 1 : 2);
    }
    layout->addLayout(buttons);
    addListShortcut(m_accesses, QKeySequence(Qt::Key_Insert), m_add);
    addListShortcut(m_accesses, QKeySequence(Qt::Key_Delete), m_remove);
    addListShortcut(m_accesses, QKeySequence(Qt::CTRL | Qt::Key_D), m_duplicate);
    addListShortcut(m_accesses, QKeySequence(Qt::ALT | Qt::Key_Up), m_up);
    addListShortcut(m_accesses, QKeySequence(Qt::ALT | Qt::Key_Down), m_down);

    // ---- Details of a kernel: the access's name and buffer, the buffers, the launch -----------
    m_details = new QWidget(this);
    auto* details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    auto* accessForm = new QFormLayout;
    m_label = new QLineEdit(m_details);
    m_label->setObjectName(QStringLiteral("accessLabel"));
    m_label->setPlaceholderText(tr("a short name, e.g. load in"));
    m_buffer = new QComboBox(m_details);
    m_buffer->setObjectName(QStringLiteral("accessBuffer"));
    m_buffer->setToolTip(tr("The global buffer the selected access addresses"));
    auto* labelLabel = new QLabel(tr("Access &name:"), m_details);
    labelLabel->setBuddy(m_label);
    auto* bufferLabel = new QLabel(tr("Its b&uffer:"), m_details);
    bufferLabel->setBuddy(m_buffer);
    accessForm->addRow(labelLabel, m_label);
    accessForm->addRow(bufferLabel, m_buffer);
    details->addLayout(accessForm);

    auto* buffersLabel = new QLabel(tr("Buffers (name, size in bytes):"), m_details);
    m_buffers = new QTableWidget(0, 2, m_details);
    m_buffers->setObjectName(QStringLiteral("bufferTable"));
    m_buffers->setHorizontalHeaderLabels({tr("Name"), tr("Size (bytes)")});
    m_buffers->verticalHeader()->hide();
    m_buffers->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_buffers->horizontalHeader()->setSectionResizeMode(SizeColumn, QHeaderView::Stretch);
    m_buffers->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_buffers->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_buffers->setSelectionMode(QAbstractItemView::SingleSelection);
    m_buffers->setToolTip(tr("Double-click a cell to edit it; a size is an expression of the "
                             "parameters, e.g. nx * ny * 4"));
    buffersLabel->setBuddy(m_buffers);
    auto* bufferButtons = new QHBoxLayout;
    m_addBuffer = new QPushButton(tr("Add buffer"), m_details);
    m_addBuffer->setObjectName(QStringLiteral("addBuffer"));
    m_removeBuffer = new QPushButton(tr("Remove buffer"), m_details);
    m_removeBuffer->setObjectName(QStringLiteral("removeBuffer"));
    m_removeBuffer->setToolTip(tr("Remove the selected buffer (not while an access uses it)"));
    bufferButtons->addWidget(m_addBuffer);
    bufferButtons->addWidget(m_removeBuffer);
    bufferButtons->addStretch(1);
    details->addWidget(buffersLabel);
    details->addWidget(m_buffers);
    details->addLayout(bufferButtons);

    auto* launch = new QGridLayout;
    const QString rowNames[2] = {tr("Launch grid:"), tr("Launch block:")};
    for (int axis = 0; axis < 3; ++axis) {
        auto* header = new QLabel(QString(QLatin1Char("xyz"[axis])), m_details);
        header->setAlignment(Qt::AlignCenter);
        header->setEnabled(false);
        launch->addWidget(header, 0, axis + 1);
        launch->setColumnStretch(axis + 1, 1);
    }
    for (int field = 0; field < 6; ++field) {
        auto* edit = new QLineEdit(m_details);
        edit->setObjectName(QStringLiteral("launch%1%2")
                                .arg(field < 3 ? QStringLiteral("Grid") : QStringLiteral("Block"))
                                .arg(QLatin1Char("XYZ"[field % 3])));
        edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(QStringLiteral("000")) + 12);
        edit->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        edit->setToolTip(tr("A number or an expression of the parameters, e.g. nx / bx"));
        m_launch[static_cast<std::size_t>(field)] = edit;
        launch->addWidget(edit, field / 3 + 1, field % 3 + 1);
        connect(edit, &QLineEdit::textEdited, this, [this, field](const QString& text) {
            if (!m_syncing) {
                setRefusal(m_document->setLaunchField(field, text).value_or(QString()));
            }
        });
    }
    for (int row = 0; row < 2; ++row) {
        auto* name = new QLabel(rowNames[row], m_details);
        name->setBuddy(m_launch[static_cast<std::size_t>(row * 3)]);
        launch->addWidget(name, row + 1, 0);
    }
    details->addLayout(launch);
    layout->addWidget(m_details);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("kernelError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = m_error->palette();
    p.setColor(QPalette::WindowText, ViewColors::fromPalette(p).warning);
    m_error->setPalette(p);
    m_error->hide();
    layout->addWidget(m_error);

    // The grid model's verdict on the whole launch: an error the GPU would fault on, styled as
    // one (bold, in the error colour), where the accesses and buffers are edited.
    m_gridProblem = new QLabel(this);
    m_gridProblem->setObjectName(QStringLiteral("kernelGridProblem"));
    m_gridProblem->setWordWrap(true);
    m_gridProblem->setTextFormat(Qt::PlainText);
    m_gridProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gridProblem->setAccessibleName(tr("Kernel error"));
    QPalette problemPalette = m_gridProblem->palette();
    problemPalette.setColor(QPalette::WindowText, ViewColors::fromPalette(problemPalette).warning);
    m_gridProblem->setPalette(problemPalette);
    QFont problemFont = m_gridProblem->font();
    problemFont.setBold(true);
    m_gridProblem->setFont(problemFont);
    m_gridProblem->hide();
    layout->addWidget(m_gridProblem);

    // ---- Edits ---------------------------------------------------------------------------------
    connect(m_accesses, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_syncing && row >= 0) {
            m_document->selectAccess(row);
        }
    });
    auto refuseUnless = [this](bool done, const QString& why) {
        setRefusal(done ? QString() : why);
    };
    connect(m_add, &QPushButton::clicked, this, [this, refuseUnless] {
        refuseUnless(m_document->addAccess(),
                     tr("No access added: a kernel holds at most 64, and a pattern of explicit "
                        "lane addresses is no kernel's access."));
        m_accesses->setFocus();
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        m_document->removeAccess(m_document->selectedAccess());
        m_accesses->setFocus();
    });
    connect(m_duplicate, &QPushButton::clicked, this, [this, refuseUnless] {
        refuseUnless(m_document->duplicateAccess(m_document->selectedAccess()),
                     tr("No access duplicated: a kernel holds at most 64, and a pattern of "
                        "explicit lane addresses is no kernel's access."));
        m_accesses->setFocus();
    });
    connect(m_up, &QPushButton::clicked, this, [this] {
        m_document->moveAccess(m_document->selectedAccess(), -1);
        m_accesses->setFocus();
    });
    connect(m_down, &QPushButton::clicked, this, [this] {
        m_document->moveAccess(m_document->selectedAccess(), +1);
        m_accesses->setFocus();
    });
    connect(m_label, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (!m_syncing) {
            m_document->setAccessLabel(text);
        }
    });
    connect(m_buffer, &QComboBox::activated, this, [this] {
        if (!m_syncing) {
            m_document->setAccessBuffer(m_buffer->currentText());
        }
    });
    connect(m_buffers, &QTableWidget::itemChanged, this, &KernelPanel::bufferEdited);
    connect(m_addBuffer, &QPushButton::clicked, this, [this, refuseUnless] {
        refuseUnless(m_document->addBuffer(), tr("No buffer added: a kernel has at most 64."));
    });
    connect(m_removeBuffer, &QPushButton::clicked, this, [this] {
        const auto& kernel = m_document->kernel();
        if (!kernel) {
            return;
        }
        const int row = m_buffers->currentRow() >= 0 ? m_buffers->currentRow()
                                                     : static_cast<int>(kernel->buffers.size()) - 1;
        if (row < 0) {
            return;
        }
        const int user = accessUsingBuffer(*kernel, row);
        if (user >= 0) {
            setRefusal(tr("Buffer \"%1\" stays: access %2 addresses it. Point that access at "
                          "another buffer first.")
                           .arg(QString::fromStdString(
                               kernel->buffers[static_cast<std::size_t>(row)].name))
                           .arg(user + 1));
            return;
        }
        setRefusal(QString());
        m_document->removeBuffer(row);
    });

    connect(m_document, &PatternDocument::patternChanged, this, [this] {
        m_refusal.clear(); // a refusal is about the edit before this one
        syncFromDocument();
    });
    connect(m_document, &PatternDocument::errorChanged, this, &KernelPanel::showError);
    connect(m_document, &PatternDocument::evaluationChanged, this, &KernelPanel::showError);
    connect(KernelPrediction::of(m_document), &KernelPrediction::changed, this,
            &KernelPanel::showGridProblem);
    connect(m_document, &PatternDocument::errorChanged, this, &KernelPanel::showGridProblem);
    syncFromDocument();
    showError();
    showGridProblem();
}

QString KernelPanel::gridProblemText() const {
    return m_gridProblem->isHidden() ? QString() : m_gridProblem->text();
}

void KernelPanel::showGridProblem() {
    const KernelPrediction* prediction = KernelPrediction::of(m_document);
    const auto& result = prediction->result();
    QString text;
    int access = -1;
    // Address problems only (the expression and launch errors are the document's, shown above,
    // and while there is one the grid's would repeat it); a walk of an older kernel is not
    // shown against this one.
    if (result && result->problem && m_document->kernel() && !m_document->error() &&
        result->kernel == *m_document->kernel()) {
        const ErrorCode code = result->problem->code;
        if (code == ErrorCode::OutOfBounds || code == ErrorCode::Misaligned ||
            code == ErrorCode::NegativeAddress || code == ErrorCode::Overflow) {
            text = KernelPrediction::problemText(*result);
            access = KernelPrediction::problemAccess(*result->problem);
        }
    }
    m_problemAccess = access;
    const QString shown = text.isEmpty() ? QString() : QStringLiteral("✖ ") + text;
    if (m_gridProblem->text() != shown) {
        m_gridProblem->setText(shown);
    }
    m_gridProblem->setVisible(!text.isEmpty());
    // The access in trouble is marked in the list, with the message as its tooltip.
    const QColor bad = ViewColors::fromPalette(palette()).warning;
    for (int row = 0; row < m_accesses->count(); ++row) {
        QListWidgetItem* item = m_accesses->item(row);
        const bool marked = row == access;
        item->setForeground(marked ? QBrush(bad) : QBrush());
        item->setToolTip(marked ? text : QString());
        item->setIcon(marked ? style()->standardIcon(QStyle::SP_MessageBoxCritical) : QIcon());
    }
    fitAccessList(); // an icon can make the rows taller
}

QLineEdit* KernelPanel::launchEdit(int field) const {
    return field >= 0 && field < 6 ? m_launch[static_cast<std::size_t>(field)] : nullptr;
}

QString KernelPanel::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

QString KernelPanel::kernelErrorText(const Error& error, const Kernel& kernel, int selectedAccess) {
    const QStringList parts =
        QString::fromStdString(error.where).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty() || !error.where.starts_with('/')) {
        return {};
    }
    QString message = QString::fromStdString(error.message);
    if (error.column > 0) {
        message = tr("column %1: %2").arg(error.column).arg(message);
    }
    bool ok = false;
    const int index = parts.value(1).toInt(&ok);
    const QString section = parts.front();
    if (section == QLatin1String("buffers") && ok && index >= 0 &&
        index < static_cast<int>(kernel.buffers.size())) {
        const QString name =
            QString::fromStdString(kernel.buffers[static_cast<std::size_t>(index)].name);
        const QString what = parts.value(2) == QLatin1String("bytes") ? tr("size") : tr("name");
        return tr("Buffer \"%1\" %2: %3").arg(name, what, message);
    }
    if (section == QLatin1String("accesses") && ok && index >= 0 &&
        index < static_cast<int>(kernel.accesses.size())) {
        const QString field = parts.value(2);
        if (index == selectedAccess &&
            (field == QLatin1String("address") || field == QLatin1String("active"))) {
            return {}; // the expression fields show it, with its column
        }
        const QString label =
            QString::fromStdString(kernel.accesses[static_cast<std::size_t>(index)].label);
        // "/accesses/1/address (store out), block (3, 0, 0), ...": the core's where is
        // precise; keep what follows the pointer.
        QString where = QString::fromStdString(error.where);
        const qsizetype space = where.indexOf(QLatin1Char(' '));
        const QString rest = space >= 0 ? where.mid(space + 1) : QString();
        return tr("Access %1%2%3: %4")
            .arg(index + 1)
            .arg(label.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(label))
            .arg(field.isEmpty() ? QString()
                                 : QStringLiteral(" %1").arg(field.section(QLatin1Char(' '), 0, 0)))
            .arg(rest.isEmpty() ? message : rest + QStringLiteral(": ") + message);
    }
    if (section == QLatin1String("grid") || section == QLatin1String("block")) {
        const QString axis = ok && index >= 0 && index < 3
                                 ? QStringLiteral(".") + QLatin1Char("xyz"[index])
                                 : QString();
        return tr("Launch %1%2: %3").arg(section, axis, message);
    }
    return tr("Kernel %1: %2").arg(QString::fromStdString(error.where), message);
}

void KernelPanel::setRefusal(const QString& message) {
    m_refusal = message;
    showError();
}

void KernelPanel::showError() {
    QString text = m_refusal;
    const auto& error = m_document->error();
    const auto& kernel = m_document->kernel();
    if (text.isEmpty() && error && kernel) {
        text = kernelErrorText(*error, *kernel, m_document->selectedAccess());
        if (!text.isEmpty()) {
            text += tr(" — the picture shows the last valid kernel; nothing typed is lost.");
        }
    }
    m_error->setText(text.isEmpty() ? QString() : QStringLiteral("⚠ ") + text);
    m_error->setVisible(!text.isEmpty());
}

void KernelPanel::fitAccessList() {
    const int rows = std::clamp(m_accesses->count(), 1, 8);
    const int hint = m_accesses->sizeHintForRow(0);
    const int row = hint > 0 ? hint : fontMetrics().height() + 4;
    m_accesses->setFixedHeight(rows * row + 2 * m_accesses->frameWidth() + 2);
}

void KernelPanel::syncFromDocument() {
    m_syncing = true;
    const auto& kernel = m_document->kernel();
    const int selected = m_document->selectedAccess();
    {
        const QSignalBlocker blocker(m_accesses);
        QStringList texts;
        if (kernel) {
            for (std::size_t i = 0; i < kernel->accesses.size(); ++i) {
                texts << accessText(kernel->accesses[i], static_cast<int>(i));
            }
        } else {
            KernelAccess single;
            single.kind = m_document->pattern().kind;
            single.label = tr("this pattern").toStdString();
            texts << accessText(single, 0);
        }
        // Rebuilt only when the texts change: a slider drag changes none of them.
        bool same = m_accesses->count() == texts.size();
        for (int i = 0; same && i < texts.size(); ++i) {
            same = m_accesses->item(i)->text() == texts[i];
        }
        if (!same) {
            m_accesses->clear();
            m_accesses->addItems(texts);
            fitAccessList();
            m_problemAccess = -2; // the marks went with the items: showGridProblem() redoes them
        }
        if (m_accesses->currentRow() != selected) {
            m_accesses->setCurrentRow(selected);
        }
    }
    const int count = m_document->accessCount();
    const bool isKernel = kernel.has_value();
    const bool expression = m_document->pattern().source.has_value();
    m_summary->setText(
        isKernel
            ? (count == 1 ? tr("1 access; it is edited below.")
                          : tr("%1 accesses in program order; the selected one is edited below.")
                                .arg(count))
            : tr("One access: this pattern. Add or duplicate it to make a kernel of "
                 "several."));
    m_add->setEnabled(expression && count < 64);
    m_duplicate->setEnabled(expression && count < 64);
    m_remove->setEnabled(isKernel && count > 1);
    m_up->setEnabled(isKernel && selected > 0);
    m_down->setEnabled(isKernel && selected + 1 < count);
    m_details->setVisible(isKernel);
    if (isKernel) {
        const KernelAccess& access = kernel->accesses[static_cast<std::size_t>(selected)];
        if (m_label->text() != QString::fromStdString(access.label)) {
            m_label->setText(QString::fromStdString(access.label));
        }
        {
            // Refilled only when the names change: refilling relayouts the dock, and every
            // keystroke and slider frame comes through here.
            const QSignalBlocker blocker(m_buffer);
            QStringList names;
            for (const KernelBuffer& buffer : kernel->buffers) {
                names << QString::fromStdString(buffer.name);
            }
            bool same = m_buffer->count() == names.size();
            for (int i = 0; same && i < names.size(); ++i) {
                same = m_buffer->itemText(i) == names[i];
            }
            if (!same) {
                m_buffer->clear();
                m_buffer->addItems(names);
            }
            const int current = m_buffer->findText(QString::fromStdString(access.buffer));
            if (m_buffer->currentIndex() != current) {
                m_buffer->setCurrentIndex(current);
            }
            m_buffer->setEnabled(access.kind.space == MemorySpace::Global ||
                                 access.kind.space == MemorySpace::Constant ||
                                 access.kind.space == MemorySpace::Texture);
        }
        {
            const QSignalBlocker blocker(m_buffers);
            const int rows = static_cast<int>(kernel->buffers.size());
            if (m_buffers->rowCount() != rows) {
                m_buffers->setRowCount(rows);
            }
            for (int row = 0; row < rows; ++row) {
                const KernelBuffer& buffer = kernel->buffers[static_cast<std::size_t>(row)];
                for (auto [column, text] : {std::pair{int(NameColumn), buffer.name},
                                            std::pair{int(SizeColumn), buffer.bytesExpression}}) {
                    QTableWidgetItem* item = m_buffers->item(row, column);
                    if (item == nullptr) {
                        item = new QTableWidgetItem;
                        m_buffers->setItem(row, column, item);
                    }
                    if (item->text() != QString::fromStdString(text)) {
                        item->setText(QString::fromStdString(text));
                    }
                }
            }
            const int height =
                m_buffers->horizontalHeader()->sizeHint().height() +
                std::max(1, rows) * m_buffers->verticalHeader()->defaultSectionSize() +
                2 * m_buffers->frameWidth();
            m_buffers->setFixedHeight(height);
        }
        for (int field = 0; field < 6; ++field) {
            const std::string& text =
                field < 3 ? kernel->launch.grid[static_cast<std::size_t>(field)]
                          : kernel->launch.block[static_cast<std::size_t>(field - 3)];
            QLineEdit* edit = m_launch[static_cast<std::size_t>(field)];
            if (edit->text() != QString::fromStdString(text)) {
                edit->setText(QString::fromStdString(text));
                if (!edit->hasFocus()) {
                    // A long expression ("(nx + bx - 1) / bx") shows its start, and all of it
                    // in the tooltip.
                    edit->setCursorPosition(0);
                }
                edit->setToolTip(tr("%1\n\nA number or an expression of the parameters, e.g. "
                                    "nx / bx")
                                     .arg(QString::fromStdString(text)));
            }
        }
    }
    m_syncing = false;
    showError();
    if (m_problemAccess == -2) {
        showGridProblem();
    }
}

void KernelPanel::bufferEdited(QTableWidgetItem* item) {
    if (m_syncing || item == nullptr) {
        return;
    }
    std::optional<QString> refusal;
    if (item->column() == NameColumn) {
        refusal = m_document->renameBuffer(item->row(), item->text());
    } else {
        refusal = m_document->setBufferSize(item->row(), item->text());
    }
    setRefusal(refusal.value_or(QString()));
    if (refusal) {
        // The document kept the old text; show it again (the message says what was refused).
        syncFromDocument();
    }
}

} // namespace warpscope::app
