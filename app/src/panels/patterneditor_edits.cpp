// PatternEditor's two-way bond with the document: syncFromDocument() shows what the document says
// in every widget after any change (undo and redo included), and each edit*() turns one widget's
// change into an undoable document edit.
#include "panels/patterneditor.h"

#include "document/patterndocument.h"
#include "panels/expressionedit.h"
#include "panels/parameterpanel.h"
#include "panels/parametertablemodel.h"
#include "panels/presetpicker.h"

#include <warpscope/matrix_access.h>

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>

#include <algorithm>
#include <limits>
#include <tuple>

namespace warpscope::app {

namespace {

int clampToInt(std::int64_t value, int low) {
    return static_cast<int>(std::clamp<std::int64_t>(value, low, std::numeric_limits<int>::max()));
}

/// Set a spin box only where it differs: QSpinBox repaints on setRange() and setValue() even when
/// nothing changes, and a repainted spin box repaints its group box beneath it, on every frame of
/// a slider drag.
void setSpin(QSpinBox* box, int value) {
    if (box->value() != value) {
        box->setValue(value);
    }
}

void setSpinRange(QSpinBox* box, int minimum, int maximum) {
    if (box->minimum() != minimum || box->maximum() != maximum) {
        box->setRange(minimum, maximum);
    }
}

} // namespace

void PatternEditor::syncFromDocument() {
    m_syncing = true;
    const NamedPattern& named = m_document->current();
    const Pattern& pattern = named.pattern;
    m_presets->setCurrentPresetId(m_document->presetId());
    m_title->setText(QString::fromStdString(named.title));
    m_caption->setText(QString::fromStdString(named.caption));
    m_caption->setVisible(!named.caption.empty());
    if (named.kernel) {
        const int selected = m_document->selectedAccess();
        const std::string& label = named.kernel->accesses[static_cast<std::size_t>(selected)].label;
        m_patternBox->setTitle(
            label.empty() ? tr("Access %1 of %2").arg(selected + 1).arg(m_document->accessCount())
                          : tr("Access %1 of %2: %3")
                                .arg(selected + 1)
                                .arg(m_document->accessCount())
                                .arg(QString::fromStdString(label)));
    } else {
        m_patternBox->setTitle(tr("Pattern"));
    }

    const bool hasSource = pattern.source.has_value();
    m_address->setEnabled(hasSource);
    m_active->setEnabled(hasSource);
    const bool copy = hasSource && pattern.kind.op == AccessOp::CopyAsync;
    m_sharedLabel->setVisible(copy);
    m_shared->setVisible(copy);
    m_sharedError->setVisible(copy && !m_sharedError->text().isEmpty());
    m_explicitNote->setVisible(!hasSource);
    m_blockX->setEnabled(hasSource);
    m_blockY->setEnabled(hasSource);
    m_blockZ->setEnabled(hasSource);
    for (QSpinBox* box : {m_gridX, m_gridY, m_gridZ, m_bidX, m_bidY, m_bidZ}) {
        box->setEnabled(hasSource);
    }
    // A kernel's grid and block are edited in one place, the Kernel section's launch fields
    // (expressions of the parameters); here they are shown read-only. A plain pattern's are
    // edited here (it has no launch fields).
    const bool launchHere = !named.kernel.has_value();
    for (QSpinBox* box : {m_blockX, m_blockY, m_blockZ, m_gridX, m_gridY, m_gridZ}) {
        if (box->isReadOnly() == launchHere) {
            box->setReadOnly(!launchHere);
            box->setButtonSymbols(launchHere ? QAbstractSpinBox::UpDownArrows
                                             : QAbstractSpinBox::NoButtons);
            box->setToolTip(launchHere
                                ? (box == m_gridX ? tr("gridDim: how many blocks the launch has "
                                                       "(moves gid with bid)")
                                                  : QString())
                                : tr("The kernel's launch: edit grid and block in the Kernel "
                                     "section's Launch grid and Launch block fields"));
        }
    }
    m_warpIndex->setEnabled(hasSource);
    m_parameterTable->setEnabled(hasSource);
    m_addParameter->setEnabled(hasSource);
    m_removeParameter->setEnabled(hasSource && !pattern.source->parameters.empty());
    if (hasSource) {
        const PatternSource& source = *pattern.source;
        QStringList names;
        for (const Parameter& p : source.parameters) {
            names << QString::fromStdString(p.name);
        }
        m_address->setParameterNames(names);
        m_active->setParameterNames(names);
        m_shared->setParameterNames(names);
        m_shared->setTextSilently(QString::fromStdString(source.sharedAddressExpression));
        m_address->setTextSilently(QString::fromStdString(source.addressExpression));
        m_active->setTextSilently(QString::fromStdString(source.activeExpression));
        m_parameters->setParameters(source.parameters);
        const QSignalBlocker bx(m_blockX);
        const QSignalBlocker by(m_blockY);
        const QSignalBlocker bz(m_blockZ);
        const QSignalBlocker bw(m_warpIndex);
        const QSignalBlocker gx(m_gridX);
        const QSignalBlocker gy(m_gridY);
        const QSignalBlocker gz(m_gridZ);
        const QSignalBlocker ix(m_bidX);
        const QSignalBlocker iy(m_bidY);
        const QSignalBlocker iz(m_bidZ);
        setSpin(m_blockX, static_cast<int>(std::clamp<std::int64_t>(source.blockDim.x, 1, 1024)));
        setSpin(m_blockY, static_cast<int>(std::clamp<std::int64_t>(source.blockDim.y, 1, 1024)));
        setSpin(m_blockZ, static_cast<int>(std::clamp<std::int64_t>(source.blockDim.z, 1, 64)));
        setSpin(m_gridX, clampToInt(source.gridDim.x, 1));
        setSpin(m_gridY, clampToInt(source.gridDim.y, 1));
        setSpin(m_gridZ, clampToInt(source.gridDim.z, 1));
        // A block index box spans its grid axis, so it cannot leave the grid.
        for (auto [box, index, dim] : {std::tuple{m_bidX, source.blockIdx.x, source.gridDim.x},
                                       std::tuple{m_bidY, source.blockIdx.y, source.gridDim.y},
                                       std::tuple{m_bidZ, source.blockIdx.z, source.gridDim.z}}) {
            setSpinRange(box, 0, clampToInt(dim - 1, 0));
            setSpin(box, clampToInt(index, 0));
        }
        const std::int64_t threads = source.blockDim.count();
        const std::int64_t warps = std::max<std::int64_t>(1, (threads + kWarpSize - 1) / kWarpSize);
        setSpinRange(m_warpIndex, 0, static_cast<int>(std::min<std::int64_t>(warps - 1, 1 << 20)));
        setSpin(m_warpIndex,
                static_cast<int>(std::clamp<std::int64_t>(source.warpIndex, 0, warps - 1)));
        QString text = tr("of %n warp(s), %1 threads", "", static_cast<int>(warps)).arg(threads);
        // The gids this warp covers, from the core (so the grid and block index show their
        // effect); nothing when the shape is invalid (the error says why).
        if (auto lanes = warpThreads(source)) {
            const LaneThread& first = lanes.value().front();
            std::int64_t last = first.globalIndex;
            for (const LaneThread& t : lanes.value()) {
                if (t.existsInBlock) {
                    last = t.globalIndex;
                }
            }
            text += tr("; gid %1 … %2").arg(first.globalIndex).arg(last);
        }
        m_warpCount->setText(text);
    } else {
        m_address->setTextSilently(QString());
        m_active->setTextSilently(QString());
        m_parameters->setParameters({});
        m_warpCount->setText(tr("explicit pattern: one warp"));
    }

    auto select = [](QComboBox* box, const QVariant& value) {
        const QSignalBlocker blocker(box);
        const int index = box->findData(value);
        if (index >= 0) {
            box->setCurrentIndex(index);
        }
    };
    select(m_space, QString::fromLatin1(toString(pattern.kind.space)));
    select(m_op, QString::fromLatin1(opName(pattern.kind)));
    select(m_width, pattern.kind.widthBytes);
    select(m_cache, static_cast<int>(pattern.kind.cache));
    m_cache->setEnabled(pattern.kind.space == MemorySpace::Global &&
                        pattern.kind.op == AccessOp::Load);
    syncMatrixFields();
    select(m_model, static_cast<int>(m_document->model()));
    select(m_bankMode, m_document->textbookOptions().bankMode == SharedBankMode::EightByte ? 8 : 4);
    {
        const QSignalBlocker blocker(m_defaultCached);
        m_defaultCached->setChecked(m_document->textbookOptions().defaultLoadsCached);
    }
    m_syncing = false;
}

void PatternEditor::editAddress(const QString& text) {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    pattern.source->addressExpression = text.toStdString();
    m_document->editPattern(pattern, tr("Edit the address expression"),
                            static_cast<int>(EditMerge::AddressExpression));
}

void PatternEditor::editActive(const QString& text) {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    pattern.source->activeExpression = text.toStdString();
    m_document->editPattern(pattern, tr("Edit the active-lane expression"),
                            static_cast<int>(EditMerge::ActiveExpression));
}

void PatternEditor::editSharedAddress(const QString& text) {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    pattern.source->sharedAddressExpression = text.toStdString();
    m_document->editPattern(pattern, tr("Edit the async copy's shared address"),
                            static_cast<int>(EditMerge::SharedAddressExpression));
}

void PatternEditor::editParameter(int index, std::int64_t value) {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    auto& parameters = pattern.source->parameters;
    if (index < 0 || index >= static_cast<int>(parameters.size())) {
        return;
    }
    Parameter& p = parameters[static_cast<std::size_t>(index)];
    p.value = value;
    m_document->editPattern(pattern,
                            tr("Set %1 to %2").arg(QString::fromStdString(p.name)).arg(value),
                            static_cast<int>(EditMerge::FirstParameter) + index);
}

void PatternEditor::editKind() {
    if (m_syncing) {
        return;
    }
    if (auto matrixOp = matrixOpFromString(m_op->currentData().toString().toStdString())) {
        editMatrixKind(*matrixOp);
        return;
    }
    m_kindError->clear();
    m_kindError->hide();
    Pattern pattern = m_document->pattern();
    // Leaving ldmatrix / stmatrix: a plain access moves no matrices.
    pattern.kind.matrices = 0;
    pattern.kind.transpose = false;
    if (auto space = memorySpaceFromString(m_space->currentData().toString().toStdString())) {
        pattern.kind.space = *space;
    }
    if (auto op = accessOpFromString(m_op->currentData().toString().toStdString())) {
        pattern.kind.op = *op;
    }
    pattern.kind.widthBytes = m_width->currentData().toInt();
    if (pattern.source) {
        // An async copy needs its shared side: it starts as the lanes' elements side by side,
        // and follows the width while it is still that.
        std::string& shared = pattern.source->sharedAddressExpression;
        const bool generated =
            shared.empty() || (shared.rfind("lane * ", 0) == 0 && shared.size() <= 9 &&
                               shared.find_first_not_of("0123456789", 7) == std::string::npos);
        if (pattern.kind.op != AccessOp::CopyAsync) {
            shared.clear();
        } else if (generated) {
            shared = "lane * " + std::to_string(pattern.kind.widthBytes);
        }
    }
    pattern.kind.cache = static_cast<CachePath>(m_cache->currentData().toInt());
    m_document->editPattern(pattern, tr("Change the access kind"));
}

void PatternEditor::editBlock() {
    if (m_syncing || !m_document->pattern().source || m_document->kernel()) {
        return;
    }
    Pattern pattern = m_document->pattern();
    PatternSource& source = *pattern.source;
    source.blockDim = Dim3{m_blockX->value(), m_blockY->value(), m_blockZ->value()};
    // Keep the warp index inside the new block instead of producing an error.
    const std::int64_t warps = (source.blockDim.count() + kWarpSize - 1) / kWarpSize;
    source.warpIndex =
        std::clamp<std::int64_t>(source.warpIndex, 0, std::max<std::int64_t>(0, warps - 1));
    m_document->editPattern(pattern, tr("Change the block shape"),
                            static_cast<int>(EditMerge::BlockShape));
}

void PatternEditor::editGrid() {
    if (m_syncing || !m_document->pattern().source || m_document->kernel()) {
        return;
    }
    Pattern pattern = m_document->pattern();
    PatternSource& source = *pattern.source;
    source.gridDim = Dim3{m_gridX->value(), m_gridY->value(), m_gridZ->value()};
    // Keep the block index inside the new grid instead of producing an error.
    source.blockIdx.x = std::clamp<std::int64_t>(source.blockIdx.x, 0, source.gridDim.x - 1);
    source.blockIdx.y = std::clamp<std::int64_t>(source.blockIdx.y, 0, source.gridDim.y - 1);
    source.blockIdx.z = std::clamp<std::int64_t>(source.blockIdx.z, 0, source.gridDim.z - 1);
    m_document->editPattern(pattern, tr("Change the grid shape"),
                            static_cast<int>(EditMerge::GridShape));
}

void PatternEditor::editBlockIndex() {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    pattern.source->blockIdx = Dim3{m_bidX->value(), m_bidY->value(), m_bidZ->value()};
    m_document->editPattern(pattern,
                            tr("Choose block (%1, %2, %3)")
                                .arg(m_bidX->value())
                                .arg(m_bidY->value())
                                .arg(m_bidZ->value()),
                            static_cast<int>(EditMerge::BlockIndex));
}

void PatternEditor::removeSelectedParameter() {
    const QModelIndex current = m_parameterTable->currentIndex();
    // Without a selection, the last declaration goes (the one "Add" just made).
    const int row = current.isValid() ? current.row() : m_parameterModel->rowCount() - 1;
    m_parameterModel->removeParameter(row);
}

void PatternEditor::editWarpIndex(int value) {
    if (m_syncing || !m_document->pattern().source) {
        return;
    }
    Pattern pattern = m_document->pattern();
    pattern.source->warpIndex = value;
    m_document->editPattern(pattern, tr("Choose warp %1").arg(value),
                            static_cast<int>(EditMerge::WarpIndex));
}

void PatternEditor::editModel() {
    if (m_syncing) {
        return;
    }
    m_document->setModel(static_cast<ModelChoice>(m_model->currentData().toInt()));
    TextbookOptions options = m_document->textbookOptions();
    options.bankMode = m_bankMode->currentData().toInt() == 8 ? SharedBankMode::EightByte
                                                              : SharedBankMode::FourByte;
    options.defaultLoadsCached = m_defaultCached->isChecked();
    m_document->setTextbookOptions(options);
}

} // namespace warpscope::app
