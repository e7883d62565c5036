// PresetPicker: a QStandardItemModel with disabled, bold topic rows.
#include "panels/presetpicker.h"

#include "gpu/notesexperiment.h"

#include <warpscope/kernel_preset.h>
#include <warpscope/preset.h>

#include <QStandardItemModel>

namespace warpscope::app {

namespace {
constexpr int kPresetIdRole = Qt::UserRole + 1;
}

PresetPicker::PresetPicker(QWidget* parent) : QComboBox(parent) {
    setObjectName(QStringLiteral("presetPicker"));
    auto* model = new QStandardItemModel(this);
    auto* custom = new QStandardItem(tr("(pattern not from a preset, or edited)"));
    custom->setData(QString(), kPresetIdRole);
    model->appendRow(custom);
    QString topic;
    for (const Preset& preset : builtinPresets()) {
        const QString presetTopic = QString::fromStdString(preset.topic);
        if (presetTopic != topic) {
            topic = presetTopic;
            auto* heading = new QStandardItem(topic);
            heading->setFlags(Qt::ItemIsEnabled); // visible, not selectable
            QFont font = heading->font();
            font.setBold(true);
            heading->setFont(font);
            heading->setData(QString(), kPresetIdRole);
            model->appendRow(heading);
        }
        auto* item =
            new QStandardItem(QStringLiteral("    ") + QString::fromStdString(preset.title));
        item->setData(QString::fromStdString(preset.id), kPresetIdRole);
        QString tip = QString::fromStdString(preset.caption);
        if (!preset.source.empty()) {
            tip +=
                QStringLiteral("\n") + tr("Source: %1").arg(QString::fromStdString(preset.source));
        }
        tip += QStringLiteral("\n") + tr("Id: %1").arg(QString::fromStdString(preset.id));
        item->setToolTip(tip);
        model->appendRow(item);
        ++m_presetCount;
    }
    const auto addHeading = [model](const QString& text) {
        auto* heading = new QStandardItem(text);
        heading->setFlags(Qt::ItemIsEnabled);
        QFont font = heading->font();
        font.setBold(true);
        heading->setFont(font);
        heading->setData(QString(), kPresetIdRole);
        model->appendRow(heading);
    };
    if (!notesExperiments().empty()) {
        addHeading(tr("The notes beside this GPU (whole kernels)"));
        for (const NotesExperiment& experiment : notesExperiments()) {
            auto* item = new QStandardItem(QStringLiteral("    ") + experiment.title);
            item->setData(QLatin1String(kNotesExperimentPrefix) +
                              QString::fromStdString(experiment.id),
                          kPresetIdRole);
            item->setToolTip(tr("%1\nPick it, press Run (F5): the notes' numbers beside this "
                                "GPU's")
                                 .arg(experiment.source));
            model->appendRow(item);
            ++m_experimentCount;
        }
    }
    QString kernelTopic;
    for (const KernelPreset& preset : builtinKernelPresets()) {
        const QString presetTopic = tr("Kernels: %1").arg(QString::fromStdString(preset.topic));
        if (presetTopic != kernelTopic) {
            kernelTopic = presetTopic;
            addHeading(kernelTopic);
        }
        auto* item =
            new QStandardItem(QStringLiteral("    ") + QString::fromStdString(preset.title));
        item->setData(QLatin1String(kKernelPresetPrefix) + QString::fromStdString(preset.id),
                      kPresetIdRole);
        item->setToolTip(QString::fromStdString(preset.caption) + QStringLiteral("\n") +
                         tr("Source: %1").arg(QString::fromStdString(preset.source)));
        model->appendRow(item);
        ++m_kernelPresetCount;
    }
    if (m_presetCount == 0) {
        auto* none = new QStandardItem(tr("(no built-in presets in this build)"));
        none->setFlags(Qt::NoItemFlags);
        model->appendRow(none);
    }
    setModel(model);
    setMaxVisibleItems(24);
    connect(this, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_silent) {
            return;
        }
        const QString id = itemData(index, kPresetIdRole).toString();
        if (!id.isEmpty()) {
            emit presetChosen(id);
        }
    });
}

void PresetPicker::setCurrentPresetId(const QString& id) {
    int index = 0;
    if (!id.isEmpty()) {
        const int found = findData(id, kPresetIdRole);
        index = found >= 0 ? found : 0;
    }
    m_silent = true;
    setCurrentIndex(index);
    m_silent = false;
}

QString PresetPicker::currentPresetId() const {
    return currentData(kPresetIdRole).toString();
}

} // namespace warpscope::app
