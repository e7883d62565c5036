// MessageBar: label, action buttons and a close button in a tinted frame.
#include "panels/messagebar.h"

#include "panels/protocolwords.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace warpscope::app {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_buttons(new QHBoxLayout) {
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setObjectName(QStringLiteral("messageText"));
    auto* close = new QToolButton(this);
    close->setAutoRaise(true);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, &MessageBar::dismiss);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addLayout(m_buttons);
    layout->addWidget(close);
    hide();
}

void MessageBar::clearButtons() {
    for (QPushButton* button : m_actionButtons) {
        m_buttons->removeWidget(button);
        button->deleteLater();
    }
    m_actionButtons.clear();
}

void MessageBar::showMessage(Level level, const QString& text, std::vector<Action> actions) {
    m_level = level;
    m_text->setText(sayProtocolCodesInWords(text));
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    QColor tint(0x56, 0xB4, 0xE9);
    if (level == Level::Warning) {
        icon = QStyle::SP_MessageBoxWarning;
        tint = QColor(0xE6, 0x9F, 0x00);
    } else if (level == Level::Error) {
        icon = QStyle::SP_MessageBoxCritical;
        tint = QColor(0xD5, 0x5E, 0x00);
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    QPalette p = palette();
    const QColor window = parentWidget() ? parentWidget()->palette().color(QPalette::Window)
                                         : p.color(QPalette::Window);
    QColor background = window;
    background = QColor::fromRgbF(static_cast<float>(window.redF() * 0.8 + tint.redF() * 0.2),
                                  static_cast<float>(window.greenF() * 0.8 + tint.greenF() * 0.2),
                                  static_cast<float>(window.blueF() * 0.8 + tint.blueF() * 0.2));
    p.setColor(QPalette::Window, background);
    setPalette(p);

    clearButtons();
    for (Action& action : actions) {
        auto* button = new QPushButton(action.text, this);
        auto run = std::move(action.run);
        connect(button, &QPushButton::clicked, this, [this, run] {
            dismiss();
            if (run) {
                run();
            }
        });
        m_buttons->addWidget(button);
        m_actionButtons.push_back(button);
    }
    show();
    emit messageShown(m_text->text());
}

void MessageBar::dismiss() {
    clearButtons();
    hide();
}

QString MessageBar::text() const {
    return isHidden() ? QString() : m_text->text();
}

bool MessageBar::trigger(const QString& actionText) {
    for (QPushButton* button : m_actionButtons) {
        if (button->text() == actionText) {
            button->click();
            return true;
        }
    }
    return false;
}

} // namespace warpscope::app
