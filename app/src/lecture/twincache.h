// The lecture window's one cache of twins: hidden copies of a slide's views (warp, bank, notes,
// the experiment charts, the metrics table), each in a window never shown, on which the next
// slides are laid out and drawn ahead; the slide's own views adopt the pictures. A twin is made
// when first needed and kept, with the slide it was last made ready for.
#pragma once

#include <QString>

#include <map>
#include <memory>

class QWidget;

namespace warpscope::app {

class PatternDocument;

class TwinCache {
public:
    struct Twin {
        QWidget* host = nullptr;             // the window never shown that holds it
        PatternDocument* document = nullptr; // its pattern (none for the charts' twins)
        QWidget* view = nullptr;
        QWidget* frame = nullptr; // the scroll area around the view, or none
        int slide = -1;           // the slide it was last made ready for
        bool valid = false;       // whether that slide's pattern loaded without an error
    };

    TwinCache();
    ~TwinCache();
    TwinCache(const TwinCache&) = delete;
    TwinCache& operator=(const TwinCache&) = delete;

    /// Twin `name`, or nullptr when it has not been made.
    Twin* find(const QString& name);
    /// Twin `name`'s view as `View`, or nullptr when it has not been made.
    template <class View> View* view(const QString& name) {
        const Twin* twin = find(name);
        return twin != nullptr ? static_cast<View*>(twin->view) : nullptr;
    }
    /// Make twin `name` (empty) in a window of its own; with `sharing`, in twin `sharing`'s
    /// window and on its document instead (the bank view and the metrics table read one pattern).
    Twin& make(const QString& name, const QString& sharing = {});
    /// Let twin `name` go, with its window when the window is its own.
    void drop(const QString& name);

private:
    std::map<QString, std::unique_ptr<QWidget>> m_hosts; // by the name of the twin that made it
    std::map<QString, Twin> m_twins;
};

} // namespace warpscope::app
