// The Trace dock: launches, the instruction table, the warp picker and "Open as Pattern".
#include "panels/tracepanel.h"

#include "document/patterndocument.h"
#include "document/tracedocument.h"
#include "panels/sourcepanel.h"

#include <warpscope/trace_file.h>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace warpscope::app {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kInstructionRole = Qt::UserRole + 2;

QStandardItem* cell(const QString& text, const QVariant& sortValue) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortValue, kSortRole);
    return item;
}

QString launchText(const TraceLaunch& launch) {
    return QObject::tr("%1  grid (%2, %3, %4), block (%5, %6, %7)")
        .arg(shortKernelName(launch.kernel))
        .arg(launch.grid.x)
        .arg(launch.grid.y)
        .arg(launch.grid.z)
        .arg(launch.block.x)
        .arg(launch.block.y)
        .arg(launch.block.z);
}

QString completeness(const TraceLaunch& launch) {
    if (launch.complete) {
        return QObject::tr("complete");
    }
    if (launch.droppedRecords > 0) {
        return launch.droppedRecords == 1
                   ? QObject::tr("incomplete: 1 record dropped")
                   : QObject::tr("incomplete: %1 records dropped").arg(launch.droppedRecords);
    }
    return QObject::tr("incomplete: the kernel or the program failed before every record was "
                       "copied out");
}

} // namespace

TracePanel::TracePanel(TraceDocument* trace, PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_trace(trace), m_document(document) {
    setObjectName(QStringLiteral("tracePanel"));
    // The launches, instructions and warps on the left; the source of the chosen one on the right.
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    outer->addWidget(splitter);
    auto* lists = new QWidget(splitter);
    auto* layout = new QVBoxLayout(lists);
    m_program = new QLabel(this);
    m_program->setWordWrap(true);
    m_program->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_program);

    auto* launchRow = new QHBoxLayout;
    launchRow->addWidget(new QLabel(tr("Launch:"), this));
    m_launches = new QComboBox(this);
    m_launches->setObjectName(QStringLiteral("traceLaunches"));
    m_launches->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_launches->setMinimumContentsLength(30);
    launchRow->addWidget(m_launches, 1);
    m_launchStatus = new QLabel(this);
    m_launchStatus->setObjectName(QStringLiteral("traceLaunchStatus"));
    launchRow->addWidget(m_launchStatus);
    layout->addLayout(launchRow);

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({tr("PC"), tr("SASS"), tr("Source"), tr("Space"), tr("Op"),
                                        tr("Width"), tr("Warps"), tr("Per request"),
                                        tr("Counted")});
    m_model->horizontalHeaderItem(PerRequest)
        ->setToolTip(tr("The modern model's sectors per request (global, local) or wavefronts "
                        "per request (shared) over the traced warps"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("traceInstructions"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    // Room for several instructions even where the dock starts small.
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 7);
    layout->addWidget(m_table, 1);

    auto* warpRow = new QHBoxLayout;
    warpRow->addWidget(new QLabel(tr("Warp:"), this));
    m_warps = new QComboBox(this);
    m_warps->setObjectName(QStringLiteral("traceWarps"));
    warpRow->addWidget(m_warps, 1);
    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("traceSource"));
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    warpRow->addWidget(m_source, 1);
    m_openAsPattern = new QPushButton(tr("Open as Pattern"), this);
    m_openAsPattern->setToolTip(
        tr("Make this warp's addresses an editable pattern: "
           "base + stride * lane when they fit one, else the 32 addresses"));
    warpRow->addWidget(m_openAsPattern);
    layout->addLayout(warpRow);
    splitter->addWidget(lists);
    m_sourcePanel = new SourcePanel(splitter);
    splitter->addWidget(m_sourcePanel);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    connect(m_trace, &TraceDocument::traceChanged, this, &TracePanel::rebuild);
    connect(m_launches, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling) {
            fillInstructions();
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        if (!m_filling) {
            instructionChosen();
        }
    });
    connect(m_warps, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling) {
            showWarp();
        }
    });
    connect(m_openAsPattern, &QPushButton::clicked, this, &TracePanel::openAsPattern);
    rebuild();
}

std::optional<std::size_t> TracePanel::instructionOfRow(int row) const {
    const QModelIndex index = m_proxy->index(row, Pc);
    if (!index.isValid()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(index.data(kInstructionRole).toULongLong());
}

void TracePanel::rebuild() {
    m_filling = true;
    m_launches->clear();
    const TraceHeader& header = m_trace->header();
    m_program->setText(m_trace->hasTrace()
                           ? tr("%1 — %2").arg(QFileInfo(m_trace->path()).fileName(),
                                               QString::fromStdString(header.program))
                           : tr("No trace is open (File ▸ Open Trace…)."));
    for (const TraceLaunch& launch : header.launches) {
        m_launches->addItem(launchText(launch));
        m_launches->setItemData(m_launches->count() - 1, QString::fromStdString(launch.kernel),
                                Qt::ToolTipRole);
    }
    m_filling = false;
    fillInstructions();
}

void TracePanel::selectLaunch(int launch) {
    m_launches->setCurrentIndex(launch);
}

void TracePanel::fillInstructions() {
    m_filling = true;
    m_model->removeRows(0, m_model->rowCount());
    m_warps->clear();
    m_instruction.reset();
    m_record.reset();
    const int launch = m_launches->currentIndex();
    const TraceHeader& header = m_trace->header();
    m_launchStatus->clear();
    if (launch >= 0 && launch < static_cast<int>(header.launches.size())) {
        const TraceLaunch& traced = header.launches[static_cast<std::size_t>(launch)];
        m_launchStatus->setText(completeness(traced));
        const auto& summaries = m_trace->launchSummary(static_cast<std::size_t>(launch));
        if (!summaries) {
            m_filling = false;
            emit problem(tr("The trace's records cannot be read: %1")
                             .arg(QString::fromStdString(summaries.error().describe())));
            return;
        }
        for (const TraceInstructionSummary& summary : summaries.value()) {
            const TraceInstruction& instruction = header.instructions[summary.instruction];
            const QString line = sourceLineText(instruction);
            QList<QStandardItem*> row(ColumnCount);
            row[Pc] = cell(QStringLiteral("0x%1").arg(static_cast<qulonglong>(instruction.pcOffset),
                                                      4, 16, QLatin1Char('0')),
                           static_cast<qlonglong>(instruction.pcOffset));
            row[Pc]->setData(static_cast<qulonglong>(summary.instruction), kInstructionRole);
            const QString sass = QString::fromStdString(instruction.sass);
            row[Sass] = cell(sass, sass);
            row[Source] = cell(line.isEmpty() ? tr("—") : QFileInfo(line).fileName(), line);
            if (!line.isEmpty()) {
                row[Source]->setToolTip(line);
            }
            const QString space = QString::fromLatin1(toString(instruction.space));
            row[Space] = cell(space, space);
            const QString op = QString::fromLatin1(toString(instruction.op));
            row[Op] = cell(op, op);
            row[Width] = cell(tr("%1 B").arg(instruction.widthBytes), instruction.widthBytes);
            row[Warps] =
                cell(QString::number(summary.warps), static_cast<qulonglong>(summary.warps));
            if (summary.counted) {
                row[PerRequest] = cell(QString::number(summary.ratio, 'f', 2), summary.ratio);
                QString counted = QString::fromStdString(summary.ratioName);
                if (summary.warpsRefused > 0) {
                    counted += tr(" (%1 of the warps refused)").arg(summary.warpsRefused);
                }
                row[Counter] = cell(counted, counted);
                row[PerRequest]->setToolTip(tr("%1 %2, %3 %4 over %5 traced warps")
                                                .arg(QString::fromStdString(summary.firstCounter))
                                                .arg(summary.first)
                                                .arg(QString::fromStdString(summary.secondCounter))
                                                .arg(summary.second)
                                                .arg(summary.warps));
            } else {
                row[PerRequest] = cell(tr("—"), -1.0);
                row[Counter] = cell(tr("not counted (atomic)"), QString());
            }
            m_model->appendRow(row);
        }
    }
    // Worst first, as core orders the summaries (ties in PC order): the model's own order.
    m_proxy->sort(-1);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
    m_filling = false;
    if (m_proxy->rowCount() > 0) {
        m_table->selectRow(0);
        m_table->setCurrentIndex(m_proxy->index(0, Pc));
        instructionChosen();
    } else {
        m_source->clear();
    }
}

bool TracePanel::selectInstruction(std::size_t instruction) {
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        if (instructionOfRow(row) == instruction) {
            m_table->setCurrentIndex(m_proxy->index(row, Pc));
            m_table->selectRow(row);
            if (m_instruction != instruction) {
                instructionChosen();
            }
            return true;
        }
    }
    return false;
}

void TracePanel::instructionChosen() {
    const auto instruction = instructionOfRow(m_table->currentIndex().row());
    if (!instruction) {
        return;
    }
    m_instruction = instruction;
    const TraceInstruction& traced = m_trace->header().instructions[*instruction];
    const QString line = sourceLineText(traced);
    m_source->setText(line.isEmpty() ? tr("No source line (build the program with -lineinfo)")
                                     : tr("Source: %1").arg(line));
    m_sourcePanel->showSource(QString::fromStdString(traced.sourceFile), traced.sourceLine,
                              QFileInfo(m_trace->path()).absolutePath());
    m_filling = true;
    m_warps->clear();
    auto warps = m_trace->warps(*instruction);
    if (!warps) {
        m_filling = false;
        emit problem(tr("The traced warps cannot be read: %1")
                         .arg(QString::fromStdString(warps.error().describe())));
        return;
    }
    for (const TracedWarp& warp : warps.value()) {
        m_warps->addItem(tracedWarpName(warp.block, warp.warp),
                         static_cast<qulonglong>(warp.record));
    }
    m_filling = false;
    if (m_warps->count() > 0) {
        m_warps->setCurrentIndex(0);
        showWarp();
    }
}

void TracePanel::selectWarp(int index) {
    m_warps->setCurrentIndex(index);
}

void TracePanel::showWarp() {
    if (!m_instruction || m_warps->currentIndex() < 0) {
        return;
    }
    m_record = m_warps->currentData().toULongLong();
    if (auto error = m_trace->showTracedWarp(*m_document, *m_instruction, *m_record)) {
        emit problem(tr("This traced warp cannot be drawn: %1")
                         .arg(QString::fromStdString(error->describe())));
        return;
    }
    emit warpShown(*m_instruction, *m_record);
}

void TracePanel::openAsPattern() {
    if (!m_instruction || !m_record) {
        emit problem(tr("Choose a traced instruction and warp first."));
        return;
    }
    if (auto error = m_trace->openAsPattern(*m_document, *m_instruction, *m_record)) {
        emit problem(tr("This traced warp cannot be opened as a pattern: %1")
                         .arg(QString::fromStdString(error->describe())));
    }
}

} // namespace warpscope::app
