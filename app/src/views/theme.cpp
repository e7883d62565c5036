// Theme palettes (Fusion) and the Okabe-Ito view colours.
#include "views/theme.h"

#include <QApplication>
#include <QEvent>
#include <QStyleFactory>
#include <QWidget>

#include <array>
#include <utility>

namespace warpscope::app {

namespace {

/// redrawOnPaletteChange()'s filter, a child of the widget it watches.
class PaletteChangeFilter final : public QObject {
public:
    PaletteChangeFilter(QWidget* widget, std::function<void()> redraw)
        : QObject(widget), m_redraw(std::move(redraw)) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::PaletteChange && watched == parent()) {
            m_redraw();
        }
        return false;
    }

private:
    std::function<void()> m_redraw;
};

// Okabe & Ito, "Color Universal Design" (2008): distinguishable with protanopia, deuteranopia
// and tritanopia. Black is left out: it is the text colour.
constexpr std::array<QRgb, 7> kOkabeIto = {
    0xE69F00, // orange
    0x56B4E9, // sky blue
    0x009E73, // bluish green
    0xCC79A7, // reddish purple
    0x0072B2, // blue
    0xD55E00, // vermillion
    0xF0E442, // yellow
};

// Lecture mode: fully saturated versions of the same hues, bright enough on black for a projector
// (Okabe-Ito's blue and green are too dark there).
constexpr std::array<QRgb, 7> kHighContrastGroups = {
    0xFFA000, // orange
    0x40C8FF, // sky blue
    0x00E08C, // green
    0xFF78D2, // pink
    0x7896FF, // blue
    0xFF5A28, // vermillion
    0xFFF03C, // yellow
};

// How ViewColors recognises the high-contrast palette: nothing else has pure black as its base.
bool isHighContrastPalette(const QPalette& palette) {
    return palette.color(QPalette::Base) == QColor(Qt::black) &&
           palette.color(QPalette::Text) == QColor(Qt::white);
}

} // namespace

QString themeName(Theme theme) {
    switch (theme) {
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::HighContrast:
        return QStringLiteral("high-contrast");
    case Theme::Light:
        break;
    }
    return QStringLiteral("light");
}

Theme themeFromName(const QString& name) {
    if (name == QLatin1String("high-contrast")) {
        return Theme::HighContrast;
    }
    return name == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

QPalette themePalette(Theme theme) {
    if (theme == Theme::HighContrast) {
        QPalette palette;
        const QColor black(Qt::black);
        const QColor white(Qt::white);
        const QColor yellow(0xFF, 0xE6, 0x00);
        for (auto role : {QPalette::Window, QPalette::Base, QPalette::Button, QPalette::Dark,
                          QPalette::Shadow}) {
            palette.setColor(role, black);
        }
        palette.setColor(QPalette::AlternateBase, QColor(0x1A, 0x1A, 0x1A));
        palette.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
        palette.setColor(QPalette::Midlight, QColor(0x80, 0x80, 0x80));
        palette.setColor(QPalette::Light, QColor(0xA0, 0xA0, 0xA0));
        for (auto role :
             {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText}) {
            palette.setColor(role, white);
        }
        palette.setColor(QPalette::HighlightedText, black);
        palette.setColor(QPalette::Highlight, yellow);
        palette.setColor(QPalette::BrightText, yellow);
        palette.setColor(QPalette::Link, yellow);
        palette.setColor(QPalette::ToolTipBase, black);
        palette.setColor(QPalette::PlaceholderText, QColor(0xC0, 0xC0, 0xC0));
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
            palette.setColor(QPalette::Disabled, role, QColor(0xC0, 0xC0, 0xC0));
        }
        return palette;
    }
    if (theme == Theme::Light) {
        QPalette palette(QColor(0xF4, 0xF4, 0xF2));
        palette.setColor(QPalette::Base, Qt::white);
        palette.setColor(QPalette::AlternateBase, QColor(0xEE, 0xEE, 0xEB));
        palette.setColor(QPalette::Text, QColor(0x1A, 0x1A, 0x1A));
        palette.setColor(QPalette::WindowText, QColor(0x1A, 0x1A, 0x1A));
        palette.setColor(QPalette::ButtonText, QColor(0x1A, 0x1A, 0x1A));
        palette.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xB2));
        palette.setColor(QPalette::HighlightedText, Qt::white);
        palette.setColor(QPalette::ToolTipBase, QColor(0xFF, 0xFF, 0xE8));
        palette.setColor(QPalette::ToolTipText, QColor(0x1A, 0x1A, 0x1A));
        return palette;
    }
    QPalette palette;
    const QColor window(0x26, 0x28, 0x2B);
    const QColor base(0x1C, 0x1D, 0x20);
    const QColor text(0xE6, 0xE6, 0xE3);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x2C, 0x2E, 0x32));
    palette.setColor(QPalette::ToolTipBase, QColor(0x33, 0x35, 0x39));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x8C, 0x8C, 0x88));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x33, 0x35, 0x39));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xFF, 0x80, 0x60));
    palette.setColor(QPalette::Light, QColor(0x44, 0x46, 0x4A));
    palette.setColor(QPalette::Midlight, QColor(0x3A, 0x3C, 0x40));
    palette.setColor(QPalette::Mid, QColor(0x2A, 0x2B, 0x2E));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1B));
    palette.setColor(QPalette::Shadow, Qt::black);
    palette.setColor(QPalette::Highlight, QColor(0x56, 0xB4, 0xE9));
    palette.setColor(QPalette::HighlightedText, QColor(0x10, 0x10, 0x10));
    palette.setColor(QPalette::Link, QColor(0x56, 0xB4, 0xE9));
    // Muted text ("no GPU measurement yet", hints) stays readable: at least 4.5:1 (WCAG AA)
    // against the base and the alternate rows (0x80 gave 3.5:1 on the alternate rows).
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(QPalette::Disabled, role, QColor(0xA2, 0xA2, 0x9E));
    }
    return palette;
}

void applyTheme(QApplication& application, Theme theme) {
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) {
        application.setStyle(fusion);
    }
    application.setPalette(themePalette(theme));
}

QColor ViewColors::group(int index) const {
    const auto count = static_cast<int>(kOkabeIto.size());
    const int i = ((index % count) + count) % count;
    return QColor::fromRgb(
        (highContrast ? kHighContrastGroups : kOkabeIto)[static_cast<std::size_t>(i)]);
}

QColor ViewColors::groupFill(int index) const {
    const QColor strong = group(index);
    // Blend toward the surface so lane links and text stay readable on top.
    const QColor base = surface;
    const double t = highContrast ? 0.55 : (dark ? 0.45 : 0.35);
    return QColor::fromRgbF(static_cast<float>(base.redF() * (1 - t) + strong.redF() * t),
                            static_cast<float>(base.greenF() * (1 - t) + strong.greenF() * t),
                            static_cast<float>(base.blueF() * (1 - t) + strong.blueF() * t));
}

ViewColors ViewColors::fromPalette(const QPalette& palette) {
    ViewColors colors;
    colors.dark = palette.color(QPalette::Window).lightnessF() < 0.5;
    colors.background = palette.color(QPalette::Base);
    colors.text = palette.color(QPalette::Text);
    colors.highContrast = isHighContrastPalette(palette);
    if (colors.highContrast) {
        colors.surface = QColor(0x22, 0x22, 0x22);
        colors.mutedText = QColor(0xE0, 0xE0, 0xE0);
        colors.frame = Qt::white;
        colors.grid = QColor(0x90, 0x90, 0x90);
        colors.requested = Qt::white;
        colors.hatch = QColor(0xD0, 0xD0, 0xD0);
        colors.highlight = QColor(0xFF, 0xE6, 0x00);
        colors.warning = QColor(0xFF, 0x5A, 0x28);
        colors.inactive = QColor(0x50, 0x50, 0x50);
    } else if (colors.dark) {
        colors.surface = QColor(0x2A, 0x2C, 0x30);
        colors.mutedText = QColor(0xA0, 0xA0, 0x9C);
        colors.frame = QColor(0xC8, 0xC8, 0xC4);
        colors.grid = QColor(0x55, 0x57, 0x5B);
        colors.requested = QColor(0xE6, 0xE6, 0xE3);
        colors.hatch = QColor(0xB0, 0xB0, 0xAC);
        colors.highlight = QColor(0xF0, 0xE4, 0x42);
        colors.warning = QColor(0xFF, 0x7A, 0x3D);
        colors.inactive = QColor(0x4A, 0x4B, 0x4E);
    } else {
        colors.surface = QColor(0xF7, 0xF7, 0xF5);
        colors.mutedText = QColor(0x5A, 0x5A, 0x58);
        colors.frame = QColor(0x30, 0x30, 0x30);
        colors.grid = QColor(0xC4, 0xC4, 0xC0);
        colors.requested = QColor(0x1F, 0x1F, 0x1F);
        colors.hatch = QColor(0x50, 0x50, 0x50);
        colors.highlight = QColor(0x00, 0x72, 0xB2);
        colors.warning = QColor(0xD5, 0x5E, 0x00);
        colors.inactive = QColor(0xD8, 0xD8, 0xD4);
    }
    return colors;
}

void redrawOnPaletteChange(QWidget* widget, std::function<void()> redraw) {
    widget->installEventFilter(new PaletteChangeFilter(widget, std::move(redraw)));
}

} // namespace warpscope::app
