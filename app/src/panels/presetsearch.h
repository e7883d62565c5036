// PresetSearch: a line above the preset picker that finds a preset as the user types. Every
// built-in preset, notes experiment and kernel preset is listed by its title, topic and id; the
// list shows those containing the typed words, and choosing one loads it. With about eighty
// presets, the picker alone meant scrolling through all of them.
#pragma once

#include <QLineEdit>

class QCompleter;
class QStandardItemModel;

namespace warpscope::app {

class PresetSearch : public QLineEdit {
    Q_OBJECT
public:
    explicit PresetSearch(QWidget* parent = nullptr);

    QCompleter* presetCompleter() const { return m_completer; }
    /// The ids of the entries whose text contains `text` (case-insensitive), in the list's order.
    QStringList matchingIds(const QString& text) const;

signals:
    /// An entry was chosen: a preset id, or "notes:…" / "kernel:…" as PresetPicker's.
    void presetChosen(const QString& id);

private:
    QStandardItemModel* m_model;
    QCompleter* m_completer;
};

} // namespace warpscope::app
