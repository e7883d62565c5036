// MessageBar: a non-modal message strip above the views (errors opening a file, the offer to
// restore an autosaved session). The window never blocks on a dialog to report a problem, so
// tests can check the message and users keep working.
#pragma once

#include <QFrame>
#include <QString>

#include <functional>
#include <vector>

class QLabel;
class QHBoxLayout;
class QPushButton;

namespace warpscope::app {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    struct Action {
        QString text;
        std::function<void()> run;
    };

    explicit MessageBar(QWidget* parent = nullptr);

    /// Show `text`; each action becomes a button that runs it and closes the bar.
    void showMessage(Level level, const QString& text, std::vector<Action> actions = {});
    void dismiss();

    QString text() const;
    Level level() const { return m_level; }
    /// Press the action button with this text (used by tests and the command line); false if
    /// there is none.
    bool trigger(const QString& actionText);

signals:
    void messageShown(const QString& text);

private:
    void clearButtons();

    Level m_level = Level::Info;
    QLabel* m_icon;
    QLabel* m_text;
    QHBoxLayout* m_buttons;
    std::vector<QPushButton*> m_actionButtons;
};

} // namespace warpscope::app
