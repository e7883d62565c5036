// PresetPicker: the built-in presets (core's builtinPresets()) in a combo box grouped by topic,
// each topic a non-selectable heading, each preset's caption and source as its tooltip; after
// them the notes' experiments (tables of whole kernels to run beside the notes' numbers) and the
// kernel presets, grouped the same way.
#pragma once

#include <QComboBox>

namespace warpscope::app {

/// Ids of the picker's entries that are not pattern presets: "notes:table-4-11" (a notes
/// experiment, shown beside this GPU) and "kernel:transpose-naivecol-cg" (a kernel preset).
inline constexpr const char* kNotesExperimentPrefix = "notes:";
inline constexpr const char* kKernelPresetPrefix = "kernel:";

class PresetPicker : public QComboBox {
    Q_OBJECT
public:
    explicit PresetPicker(QWidget* parent = nullptr);

    /// Select the preset with this id without emitting presetChosen; an unknown or empty id
    /// selects the "(edited pattern)" entry.
    void setCurrentPresetId(const QString& id);
    QString currentPresetId() const;
    int presetCount() const { return m_presetCount; }
    int experimentCount() const { return m_experimentCount; }
    int kernelPresetCount() const { return m_kernelPresetCount; }

signals:
    void presetChosen(const QString& id);

private:
    int m_presetCount = 0;
    int m_experimentCount = 0;
    int m_kernelPresetCount = 0;
    bool m_silent = false;
};

} // namespace warpscope::app
