// installSpinBoxUndoKeys(): an application event filter that lets ShortcutOverride for the undo
// and redo keys pass a spin box unaccepted, so the shortcut map delivers them to the window's
// Undo and Redo actions.
#include "shell/spinboxundo.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QPointer>

namespace warpscope::app {

namespace {

class SpinBoxUndoKeys : public QObject {
public:
    explicit SpinBoxUndoKeys(QWidget* window) : QObject(window), m_window(window) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride) {
            return false; // the cheap test first: this sees every event of the application
        }
        auto* widget = qobject_cast<QWidget*>(watched);
        if (widget == nullptr || m_window == nullptr || !m_window->isAncestorOf(widget)) {
            return false;
        }
        // The box itself, or the line edit inside it.
        const bool inSpinBox = qobject_cast<QAbstractSpinBox*>(widget) != nullptr ||
                               qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) != nullptr;
        if (!inSpinBox) {
            return false;
        }
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
            (key->key() == Qt::Key_Y && key->modifiers() == Qt::ControlModifier)) {
            event->ignore();
            return true; // not overridden: the window's shortcut runs
        }
        return false;
    }

private:
    QPointer<QWidget> m_window;
};

} // namespace

void installSpinBoxUndoKeys(QWidget* window) {
    qApp->installEventFilter(new SpinBoxUndoKeys(window));
}

} // namespace warpscope::app
