// PatternEditor: builds the form and shows the document's errors inline. Turning each widget change
// into a document edit, and resynchronising the widgets from the document, is in
// patterneditor_edits.cpp.
#include "panels/patterneditor.h"

#include "document/patterndocument.h"
#include "panels/expressionedit.h"
#include "panels/kernelpanel.h"
#include "panels/parameterpanel.h"
#include "panels/parametertablemodel.h"
#include "panels/presetpicker.h"
#include "panels/presetsearch.h"
#include "panels/sharedcapacity.h"
#include "views/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

namespace warpscope::app {

namespace {

QLabel* makeErrorLabel(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, ViewColors::fromPalette(p).warning);
    label->setPalette(p);
    label->hide();
    return label;
}

void setErrorLabel(QLabel* label, const QString& text) {
    // The "⚠" marks it as an error without relying on the colour.
    label->setText(text.isEmpty() ? QString() : QStringLiteral("⚠ ") + text);
    label->setVisible(!text.isEmpty());
}

QString labelText(const QLabel* label) {
    return label->isHidden() ? QString() : label->text();
}

QSpinBox* makeDimBox(QWidget* parent, const QString& name) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, 1024);
    box->setAccelerated(true);
    return box;
}

/// A label whose mnemonic moves the focus to `buddy`. (QFormLayout::addRow(QString, QLayout*)
/// cannot give its label a buddy, so a mnemonic there shows as a literal '&', as "Wa&rp:" did.)
QLabel* buddyLabel(QWidget* parent, const QString& text, QWidget* buddy) {
    auto* label = new QLabel(text, parent);
    label->setBuddy(buddy);
    return label;
}

/// Spin boxes for dimensions share their column instead of asking for room for ten digits.
void letShrink(QSpinBox* box) {
    box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("0000")) + 24);
    box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

} // namespace

PatternEditor::PatternEditor(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    setObjectName(QStringLiteral("patternEditor"));
    auto* layout = new QVBoxLayout(this);

    // ---- Preset -----------------------------------------------------------------------------
    auto* presetBox = new QGroupBox(tr("Preset"), this);
    auto* presetLayout = new QVBoxLayout(presetBox);
    m_presets = new PresetPicker(presetBox);
    m_presets->setToolTip(tr("Built-in patterns from the course notes, grouped by topic"));
    // The longest preset title must not set the dock's width (it did, so the whole editor
    // scrolled sideways): the box shows what fits and the list shows every title in full.
    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_presets->setMinimumContentsLength(18);
    m_title = new QLabel(presetBox);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText); // a session's title, never markup
    m_caption = new QLabel(presetBox);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setEnabled(false);
    auto* search = new PresetSearch(presetBox);
    presetLayout->addWidget(search);
    presetLayout->addWidget(m_presets);
    presetLayout->addWidget(m_title);
    presetLayout->addWidget(m_caption);
    layout->addWidget(presetBox);
    connect(m_presets, &PresetPicker::presetChosen, this, &PatternEditor::presetRequested);
    connect(search, &PresetSearch::presetChosen, this, &PatternEditor::presetRequested);

    // ---- The kernel: its accesses (one for a plain pattern), buffers and launch ---------------
    auto* kernelBox = new QGroupBox(tr("Kernel"), this);
    auto* kernelLayout = new QVBoxLayout(kernelBox);
    m_kernel = new KernelPanel(m_document, kernelBox);
    kernelLayout->addWidget(m_kernel);
    layout->addWidget(kernelBox);

    // ---- Expressions ---------------------------------------------------------------------------
    auto* patternBox = new QGroupBox(tr("Pattern"), this);
    m_patternBox = patternBox;
    auto* patternLayout = new QVBoxLayout(patternBox);
    auto* addressLabel = new QLabel(tr("&Address in bytes (per lane):"), patternBox);
    m_address = new ExpressionEdit(patternBox);
    m_address->setObjectName(QStringLiteral("addressExpression"));
    m_address->setToolTip(tr("An expression of lane, warp, gid, tid.x/y/z, bdim.*, bid.*, gdim.* "
                             "and the parameters, e.g. 4 * (gid + offset)"));
    addressLabel->setBuddy(m_address);
    m_addressError = makeErrorLabel(patternBox, QStringLiteral("addressError"));
    auto* activeLabel = new QLabel(tr("A&ctive lanes (non-zero = active):"), patternBox);
    m_active = new ExpressionEdit(patternBox);
    m_active->setObjectName(QStringLiteral("activeExpression"));
    activeLabel->setBuddy(m_active);
    m_activeError = makeErrorLabel(patternBox, QStringLiteral("activeError"));
    m_sharedLabel = new QLabel(tr("&Shared address in bytes (async copy):"), patternBox);
    m_shared = new ExpressionEdit(patternBox);
    m_shared->setObjectName(QStringLiteral("sharedAddressExpression"));
    m_shared->setToolTip(tr("Where each lane's element lands in shared memory, e.g. tid.x * 16"));
    m_sharedLabel->setBuddy(m_shared);
    m_sharedError = makeErrorLabel(patternBox, QStringLiteral("sharedAddressError"));
    m_explicitNote = new QLabel(tr("Explicit addresses: edit them in the lane table. Undo "
                                   "(Ctrl+Z) returns to the expression."),
                                patternBox);
    m_explicitNote->setWordWrap(true);
    m_patternError = makeErrorLabel(patternBox, QStringLiteral("patternError"));
    patternLayout->addWidget(addressLabel);
    patternLayout->addWidget(m_address);
    patternLayout->addWidget(m_addressError);
    patternLayout->addWidget(activeLabel);
    patternLayout->addWidget(m_active);
    patternLayout->addWidget(m_activeError);
    patternLayout->addWidget(m_sharedLabel);
    patternLayout->addWidget(m_shared);
    patternLayout->addWidget(m_sharedError);
    patternLayout->addWidget(m_explicitNote);
    patternLayout->addWidget(m_patternError);
    layout->addWidget(patternBox);
    connect(m_address, &ExpressionEdit::textEdited, this, &PatternEditor::editAddress);
    connect(m_active, &ExpressionEdit::textEdited, this, &PatternEditor::editActive);
    connect(m_shared, &ExpressionEdit::textEdited, this, &PatternEditor::editSharedAddress);

    // ---- Parameters -----------------------------------------------------------------------------
    auto* parameterBox = new QGroupBox(tr("Parameters"), this);
    auto* parameterLayout = new QVBoxLayout(parameterBox);
    m_parameters = new ParameterPanel(parameterBox);
    parameterLayout->addWidget(m_parameters);
    // The declarations: one row per parameter, edited in place; each change is one undo step.
    m_parameterModel = new ParameterTableModel(m_document, this);
    m_parameterTable = new QTableView(parameterBox);
    m_parameterTable->setObjectName(QStringLiteral("parameterTable"));
    m_parameterTable->setModel(m_parameterModel);
    m_parameterTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_parameterTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_parameterTable->setEditTriggers(QAbstractItemView::DoubleClicked |
                                      QAbstractItemView::EditKeyPressed |
                                      QAbstractItemView::AnyKeyPressed);
    m_parameterTable->verticalHeader()->hide();
    m_parameterTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_parameterTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_parameterTable->setToolTip(tr("Declare the parameters the expressions use: double-click "
                                    "a cell to edit it. Each parameter gets a slider above."));
    auto* declareLabel =
        new QLabel(tr("&Declared parameters (name, default, range):"), parameterBox);
    declareLabel->setBuddy(m_parameterTable);
    auto* buttons = new QHBoxLayout;
    m_addParameter = new QPushButton(tr("Add"), parameterBox);
    m_addParameter->setObjectName(QStringLiteral("addParameter"));
    m_addParameter->setToolTip(tr("Declare a new parameter (then rename it in the table)"));
    m_removeParameter = new QPushButton(tr("Remove"), parameterBox);
    m_removeParameter->setObjectName(QStringLiteral("removeParameter"));
    m_removeParameter->setToolTip(tr("Remove the selected parameter's declaration"));
    buttons->addWidget(m_addParameter);
    buttons->addWidget(m_removeParameter);
    buttons->addStretch(1);
    m_parameterError = makeErrorLabel(parameterBox, QStringLiteral("parameterError"));
    parameterLayout->addWidget(declareLabel);
    parameterLayout->addWidget(m_parameterTable);
    parameterLayout->addLayout(buttons);
    parameterLayout->addWidget(m_parameterError);
    layout->addWidget(parameterBox);
    connect(m_parameters, &ParameterPanel::valueEdited, this, &PatternEditor::editParameter);
    connect(m_parameterModel, &ParameterTableModel::refusalChanged, this,
            [this](const QString& message) { setErrorLabel(m_parameterError, message); });
    connect(m_addParameter, &QPushButton::clicked, this, [this] {
        const int row = m_parameterModel->addParameter();
        if (row >= 0) {
            // Ready to type the name in place.
            const QModelIndex name = m_parameterModel->index(row, ParameterTableModel::NameColumn);
            m_parameterTable->setCurrentIndex(name);
            m_parameterTable->edit(name);
        }
    });
    connect(m_removeParameter, &QPushButton::clicked, this,
            &PatternEditor::removeSelectedParameter);
    // The table is exactly as tall as its rows (at least one), so the dock wastes no space.
    auto fitTable = [this] {
        const int rows = std::max(1, m_parameterModel->rowCount());
        m_parameterTable->setFixedHeight(
            m_parameterTable->horizontalHeader()->sizeHint().height() +
            rows * m_parameterTable->verticalHeader()->defaultSectionSize() +
            2 * m_parameterTable->frameWidth());
    };
    connect(m_parameterModel, &QAbstractItemModel::modelReset, this, fitTable);
    fitTable();

    // ---- Access kind ----------------------------------------------------------------------------
    auto* accessBox = new QGroupBox(tr("Access"), this);
    auto* accessForm = new QFormLayout(accessBox);
    m_space = new QComboBox(accessBox);
    m_space->setObjectName(QStringLiteral("spaceBox"));
    m_space->addItem(tr("Global memory"), QStringLiteral("global"));
    m_space->addItem(tr("Shared memory"), QStringLiteral("shared"));
    m_space->addItem(tr("Constant memory"), QStringLiteral("constant"));
    m_space->addItem(tr("Local memory"), QStringLiteral("local"));
    m_space->addItem(tr("Texture"), QStringLiteral("texture"));
    m_op = new QComboBox(accessBox);
    m_op->addItem(tr("Load"), QStringLiteral("load"));
    m_op->addItem(tr("Store"), QStringLiteral("store"));
    m_op->addItem(tr("Async copy → shared"), QStringLiteral("copy_async"));
    m_op->addItem(tr("ldmatrix (8×8 matrices, shared)"), QStringLiteral("ldmatrix"));
    m_op->addItem(tr("stmatrix (8×8 matrices, shared)"), QStringLiteral("stmatrix"));
    m_op->setObjectName(QStringLiteral("opBox"));
    m_matrices = new QComboBox(accessBox);
    m_matrices->setObjectName(QStringLiteral("matricesBox"));
    m_matrices->addItem(tr(".x1 — one matrix, lanes 0–7 give rows"), 1);
    m_matrices->addItem(tr(".x2 — two matrices, lanes 0–15"), 2);
    m_matrices->addItem(tr(".x4 — four matrices, all 32 lanes"), 4);
    m_transpose = new QCheckBox(tr(".trans — transpose each matrix"), accessBox);
    m_transpose->setObjectName(QStringLiteral("transposeBox"));
    m_kindError = makeErrorLabel(accessBox, QStringLiteral("kindError"));
    m_width = new QComboBox(accessBox);
    m_width->setObjectName(QStringLiteral("widthBox"));
    for (int width : kElementWidths) {
        m_width->addItem(tr("%1 bytes").arg(width), width);
    }
    m_cache = new QComboBox(accessBox);
    m_cache->addItem(tr("default (ld.global)"), static_cast<int>(CachePath::Default));
    m_cache->addItem(tr(".ca — cache in L1 and L2"), static_cast<int>(CachePath::CacheAll));
    m_cache->addItem(tr(".cg — cache in L2 only"), static_cast<int>(CachePath::CacheGlobal));
    m_cache->addItem(tr(".nc — read-only path"), static_cast<int>(CachePath::NonCoherent));
    accessForm->addRow(tr("&Space:"), m_space);
    accessForm->addRow(tr("&Operation:"), m_op);
    accessForm->addRow(tr("Eleme&nt width:"), m_width);
    accessForm->addRow(tr("Cache pa&th:"), m_cache);
    accessForm->addRow(tr("Matrices:"), m_matrices);
    accessForm->addRow(m_transpose);
    accessForm->addRow(m_kindError);
    layout->addWidget(accessBox);
    for (QComboBox* box : {m_space, m_op, m_width, m_cache, m_matrices}) {
        connect(box, &QComboBox::activated, this, &PatternEditor::editKind);
    }
    connect(m_transpose, &QCheckBox::toggled, this, &PatternEditor::editKind);

    // ---- Block and warp -------------------------------------------------------------------------
    auto* blockBox = new QGroupBox(tr("Block and warp"), this);
    // A grid: one row each for the block shape, the grid shape and the block index, one column
    // per axis, so the three fit the dock side by side.
    auto* blockGrid = new QGridLayout(blockBox);
    m_blockX = makeDimBox(blockBox, QStringLiteral("blockX"));
    m_blockY = makeDimBox(blockBox, QStringLiteral("blockY"));
    m_blockZ = makeDimBox(blockBox, QStringLiteral("blockZ"));
    m_blockZ->setRange(1, 64);
    // The grid and the block index only move gid (and bid.*): gid = linear block index ×
    // threads per block + the thread's index in the block. The core checks the limits.
    m_gridX = makeDimBox(blockBox, QStringLiteral("gridX"));
    m_gridY = makeDimBox(blockBox, QStringLiteral("gridY"));
    m_gridZ = makeDimBox(blockBox, QStringLiteral("gridZ"));
    for (QSpinBox* box : {m_gridX, m_gridY, m_gridZ}) {
        box->setRange(1, std::numeric_limits<int>::max());
    }
    m_bidX = new QSpinBox(blockBox);
    m_bidY = new QSpinBox(blockBox);
    m_bidZ = new QSpinBox(blockBox);
    m_bidX->setObjectName(QStringLiteral("blockIdxX"));
    m_bidY->setObjectName(QStringLiteral("blockIdxY"));
    m_bidZ->setObjectName(QStringLiteral("blockIdxZ"));
    for (QSpinBox* box : {m_bidX, m_bidY, m_bidZ}) {
        box->setAccelerated(true);
    }
    QSpinBox* const rows[3][3] = {
        {m_blockX, m_blockY, m_blockZ}, {m_gridX, m_gridY, m_gridZ}, {m_bidX, m_bidY, m_bidZ}};
    const QString rowLabels[3] = {tr("Bloc&k (bdim):"), tr("&Grid (gdim):"),
                                  tr("Block &index (bid):")};
    for (int axis = 0; axis < 3; ++axis) {
        auto* header = new QLabel(QString(QLatin1Char("xyz"[axis])), blockBox);
        header->setAlignment(Qt::AlignCenter);
        header->setEnabled(false);
        blockGrid->addWidget(header, 0, axis + 1);
        blockGrid->setColumnStretch(axis + 1, 1);
    }
    for (int row = 0; row < 3; ++row) {
        blockGrid->addWidget(buddyLabel(blockBox, rowLabels[row], rows[row][0]), row + 1, 0);
        for (int axis = 0; axis < 3; ++axis) {
            QSpinBox* box = rows[row][axis];
            letShrink(box);
            blockGrid->addWidget(box, row + 1, axis + 1);
        }
    }
    m_warpIndex = new QSpinBox(blockBox);
    m_warpIndex->setObjectName(QStringLiteral("warpIndex"));
    letShrink(m_warpIndex);
    m_warpCount = new QLabel(blockBox);
    m_warpCount->setWordWrap(true);
    blockGrid->addWidget(buddyLabel(blockBox, tr("Wa&rp:"), m_warpIndex), 4, 0);
    blockGrid->addWidget(m_warpIndex, 4, 1);
    blockGrid->addWidget(m_warpCount, 4, 2, 1, 2);
    m_gridX->setToolTip(tr("gridDim: how many blocks the launch has (moves gid with bid)"));
    m_bidX->setToolTip(tr("blockIdx: which block this warp belongs to"));
    layout->addWidget(blockBox);
    for (QSpinBox* box : {m_blockX, m_blockY, m_blockZ}) {
        connect(box, &QSpinBox::valueChanged, this, &PatternEditor::editBlock);
    }
    for (QSpinBox* box : {m_gridX, m_gridY, m_gridZ}) {
        connect(box, &QSpinBox::valueChanged, this, &PatternEditor::editGrid);
    }
    for (QSpinBox* box : {m_bidX, m_bidY, m_bidZ}) {
        connect(box, &QSpinBox::valueChanged, this, &PatternEditor::editBlockIndex);
    }
    connect(m_warpIndex, &QSpinBox::valueChanged, this, &PatternEditor::editWarpIndex);

    // ---- Model
    // ------------------------------------------------------------------------------------
    auto* modelBox = new QGroupBox(tr("Model"), this);
    auto* modelForm = new QFormLayout(modelBox);
    m_model = new QComboBox(modelBox);
    m_model->setObjectName(QStringLiteral("modelBox"));
    m_model->addItem(tr("Modern (cc 7.0 and later)"), static_cast<int>(ModelChoice::Modern));
    m_model->addItem(tr("Textbook (Fermi/Kepler)"), static_cast<int>(ModelChoice::Textbook));
    m_model->setToolTip(tr("Which model the views and the metrics put first; both are computed"));
    m_bankMode = new QComboBox(modelBox);
    m_bankMode->addItem(tr("4-byte banks"), 4);
    m_bankMode->addItem(tr("8-byte banks (Kepler mode)"), 8);
    m_defaultCached = new QCheckBox(tr("Plain loads cached in L1 (Fermi; off: K40)"), modelBox);
    modelForm->addRow(tr("&Model first:"), m_model);
    modelForm->addRow(tr("Textbook banks:"), m_bankMode);
    modelForm->addRow(m_defaultCached);
    layout->addWidget(modelBox);
    connect(m_model, &QComboBox::activated, this, &PatternEditor::editModel);
    connect(m_bankMode, &QComboBox::activated, this, &PatternEditor::editModel);
    connect(m_defaultCached, &QCheckBox::toggled, this, &PatternEditor::editModel);

    layout->addStretch(1);
    // The longest item of a box ("Modern (cc 7.0 and later)") must not widen the dock either.
    for (QComboBox* box : {m_space, m_op, m_width, m_cache, m_matrices, m_model, m_bankMode}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }

    connect(m_document, &PatternDocument::patternChanged, this, &PatternEditor::syncFromDocument);
    connect(m_document, &PatternDocument::modelChanged, this, &PatternEditor::syncFromDocument);
    connect(m_document, &PatternDocument::errorChanged, this, &PatternEditor::showError);
    // The shared-capacity word follows the addresses, not only the errors.
    connect(m_document, &PatternDocument::evaluationChanged, this, &PatternEditor::showError);
    syncFromDocument();
    showError();
}

QString PatternEditor::addressErrorText() const {
    return labelText(m_addressError);
}
QString PatternEditor::activeErrorText() const {
    return labelText(m_activeError);
}
QString PatternEditor::patternErrorText() const {
    return labelText(m_patternError);
}
QString PatternEditor::kindErrorText() const {
    return labelText(m_kindError);
}
QString PatternEditor::parameterErrorText() const {
    return labelText(m_parameterError);
}

QSpinBox* PatternEditor::gridBox(int axis) const {
    switch (axis) {
    case 0:
        return m_gridX;
    case 1:
        return m_gridY;
    case 2:
        return m_gridZ;
    default:
        return nullptr;
    }
}

QSpinBox* PatternEditor::blockIndexBox(int axis) const {
    switch (axis) {
    case 0:
        return m_bidX;
    case 1:
        return m_bidY;
    case 2:
        return m_bidZ;
    default:
        return nullptr;
    }
}

void PatternEditor::showError() {
    const auto& error = m_document->error();
    QString address;
    QString active;
    QString shared;
    QString general;
    int addressColumn = 0;
    int activeColumn = 0;
    int sharedColumn = 0;
    if (error && m_document->kernel() && error->where.starts_with('/')) {
        // A kernel's error: the selected access's expressions show theirs here, with the column;
        // the kernel panel names every other place (a buffer, the launch, another access).
        const std::string prefix = "/accesses/" + std::to_string(m_document->selectedAccess());
        QString message = QString::fromStdString(error->message);
        if (error->column > 0) {
            message = tr("column %1: %2").arg(error->column).arg(message);
        }
        const QString keep = tr(" — the picture shows the last valid pattern.");
        if (error->where.starts_with(prefix + "/address")) {
            address = message + keep;
            addressColumn = error->column;
        } else if (error->where.starts_with(prefix + "/active")) {
            active = message + keep;
            activeColumn = error->column;
        } else if (error->where.starts_with(prefix + "/shared_address")) {
            shared = message + keep;
            sharedColumn = error->column;
        }
    } else if (error) {
        const QString where = QString::fromStdString(error->where);
        QString message = QString::fromStdString(error->message);
        // "addressExpression, lane 5": say which lane, as the core does.
        const qsizetype comma = where.indexOf(QLatin1Char(','));
        const QString lanePart = comma >= 0 ? where.mid(comma + 1).trimmed() : QString();
        if (!lanePart.isEmpty()) {
            message = lanePart + QStringLiteral(": ") + message;
        }
        if (error->column > 0) {
            message = tr("column %1: %2").arg(error->column).arg(message);
        }
        if (where.startsWith(QLatin1String("addressExpression"))) {
            address = message;
            addressColumn = error->column;
        } else if (where.startsWith(QLatin1String("activeExpression"))) {
            active = message;
            activeColumn = error->column;
        } else if (where.startsWith(QLatin1String("sharedAddressExpression")) ||
                   where.startsWith(QLatin1String("shared address"))) {
            shared = message; // "lane 7: ..." when a lane's shared address is refused
            sharedColumn = error->column;
        } else if (where.startsWith(QLatin1String("lane ")) && m_document->pattern().source) {
            // validate() refused a lane's address (negative, misaligned): the address
            // expression produced it.
            address = where + QStringLiteral(": ") + message;
        } else {
            general = QString::fromStdString(error->describe());
        }
        if (!general.isEmpty() || !address.isEmpty() || !active.isEmpty() || !shared.isEmpty()) {
            const QString keep = tr(" — the picture shows the last valid pattern.");
            (general.isEmpty()
                 ? (address.isEmpty() ? (active.isEmpty() ? shared : active) : address)
                 : general) += keep;
        }
    }
    if (address.isEmpty() && !error && m_document->evaluation()) {
        address = sharedCapacityWarning(m_document->evaluation()->access);
    }
    setErrorLabel(m_addressError, address);
    setErrorLabel(m_activeError, active);
    setErrorLabel(m_sharedError, shared);
    m_shared->setErrorColumn(sharedColumn);
    setErrorLabel(m_patternError, general);
    m_address->setErrorColumn(addressColumn);
    m_active->setErrorColumn(activeColumn);
}

} // namespace warpscope::app
