// PresetPicker: the built-in presets (core's builtinPresets()) in a combo box grouped by topic,
// each topic a non-selectable heading, each preset's caption and source as its tooltip.
#pragma once

#include <QComboBox>

namespace warpscope::app {

class PresetPicker : public QComboBox {
    Q_OBJECT
public:
    explicit PresetPicker(QWidget* parent = nullptr);

    /// Select the preset with this id without emitting presetChosen; an unknown or empty id
    /// selects the "(edited pattern)" entry.
    void setCurrentPresetId(const QString& id);
    QString currentPresetId() const;
    int presetCount() const { return m_presetCount; }

signals:
    void presetChosen(const QString& id);

private:
    int m_presetCount = 0;
    bool m_silent = false;
};

} // namespace warpscope::app
