// PresetSearch: a QCompleter in MatchContains mode over one model of every entry.
#include "panels/presetsearch.h"

#include "gpu/notesexperiment.h"
#include "panels/presetpicker.h"

#include <warpscope/kernel_preset.h>
#include <warpscope/preset.h>

#include <QAbstractItemView>
#include <QCompleter>
#include <QStandardItemModel>
#include <QTimer>

namespace warpscope::app {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
}

PresetSearch::PresetSearch(QWidget* parent)
    : QLineEdit(parent), m_model(new QStandardItemModel(this)), m_completer(new QCompleter(this)) {
    setObjectName(QStringLiteral("presetSearch"));
    setPlaceholderText(tr("Search presets: type a word of a title, topic or id"));
    setClearButtonEnabled(true);
    auto add = [this](const QString& title, const QString& topic, const QString& id) {
        auto* item = new QStandardItem(QStringLiteral("%1 — %2").arg(title, topic));
        item->setData(id, kIdRole);
        item->setToolTip(id);
        m_model->appendRow(item);
    };
    for (const Preset& preset : builtinPresets()) {
        add(QString::fromStdString(preset.title), QString::fromStdString(preset.topic),
            QString::fromStdString(preset.id));
    }
    for (const NotesExperiment& experiment : notesExperiments()) {
        add(experiment.title, tr("the notes beside this GPU"),
            QLatin1String(kNotesExperimentPrefix) + QString::fromStdString(experiment.id));
    }
    for (const KernelPreset& preset : builtinKernelPresets()) {
        add(QString::fromStdString(preset.title),
            tr("kernels: %1").arg(QString::fromStdString(preset.topic)),
            QLatin1String(kKernelPresetPrefix) + QString::fromStdString(preset.id));
    }
    m_completer->setModel(m_model);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setMaxVisibleItems(16);
    setCompleter(m_completer);
    connect(m_completer, qOverload<const QModelIndex&>(&QCompleter::activated), this,
            [this](const QModelIndex& index) {
                const QString id = index.data(kIdRole).toString();
                if (!id.isEmpty()) {
                    emit presetChosen(id);
                    // After the completer has written the chosen text into the line.
                    QTimer::singleShot(0, this, [this] { clear(); });
                }
            });
    connect(this, &QLineEdit::returnPressed, this, [this] {
        // Return with one match left loads it, as choosing it would.
        const QStringList ids = matchingIds(text());
        if (ids.size() == 1) {
            emit presetChosen(ids.front());
            clear();
        }
    });
}

QStringList PresetSearch::matchingIds(const QString& text) const {
    QStringList ids;
    const QString words = text.trimmed();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QStandardItem* item = m_model->item(row);
        const QString id = item->data(kIdRole).toString();
        if (item->text().contains(words, Qt::CaseInsensitive) ||
            id.contains(words, Qt::CaseInsensitive)) {
            ids << id;
        }
    }
    return ids;
}

} // namespace warpscope::app
