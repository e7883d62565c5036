// Theme palettes (Fusion) and the Okabe-Ito view colours.
#include "views/theme.h"

#include <QApplication>
#include <QEvent>
#include <QStyleFactory>
#include <QWidget>

#include <array>
#include <optional>
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

/// Each palette role's colour in the light, dark and high-contrast themes; {}: the light theme
/// keeps what QPalette derives from its window colour.
struct RoleColors {
    QPalette::ColorRole role;
    std::optional<QRgb> light;
    QRgb dark;
    QRgb highContrast;
};
constexpr RoleColors kRoleColors[] = {
    {QPalette::Window, {}, 0x26282B, 0x000000},
    {QPalette::WindowText, 0x1A1A1A, 0xE6E6E3, 0xFFFFFF},
    {QPalette::Base, 0xFFFFFF, 0x1C1D20, 0x000000},
    {QPalette::AlternateBase, 0xEEEEEB, 0x2C2E32, 0x1A1A1A},
    {QPalette::ToolTipBase, 0xFFFFE8, 0x333539, 0x000000},
    {QPalette::ToolTipText, 0x1A1A1A, 0xE6E6E3, 0xFFFFFF},
    {QPalette::PlaceholderText, {}, 0x8C8C88, 0xC0C0C0},
    {QPalette::Text, 0x1A1A1A, 0xE6E6E3, 0xFFFFFF},
    {QPalette::Button, {}, 0x333539, 0x000000},
    {QPalette::ButtonText, 0x1A1A1A, 0xE6E6E3, 0xFFFFFF},
    {QPalette::BrightText, {}, 0xFF8060, 0xFFE600},
    {QPalette::Light, {}, 0x44464A, 0xA0A0A0},
    {QPalette::Midlight, {}, 0x3A3C40, 0x808080},
    {QPalette::Mid, {}, 0x2A2B2E, 0x606060},
    {QPalette::Dark, {}, 0x18191B, 0x000000},
    {QPalette::Shadow, {}, 0x000000, 0x000000},
    {QPalette::Highlight, 0x0072B2, 0x56B4E9, 0xFFE600},
    {QPalette::HighlightedText, 0xFFFFFF, 0x101010, 0x000000},
    {QPalette::Link, {}, 0x56B4E9, 0xFFE600},
};

/// The views' own colours beside the palette's, per theme (ViewColors' fields of the same names).
struct ViewShades {
    QRgb surface, mutedText, frame, grid, requested, hatch, highlight, warning, inactive;
};
// surface, muted text, frame, grid, requested, hatch, highlight, warning, inactive
constexpr ViewShades kLightShades{0xF7F7F5, 0x5A5A58, 0x303030, 0xC4C4C0, 0x1F1F1F,
                                  0x505050, 0x0072B2, 0xD55E00, 0xD8D8D4};
constexpr ViewShades kDarkShades{0x2A2C30, 0xA0A09C, 0xC8C8C4, 0x55575B, 0xE6E6E3,
                                 0xB0B0AC, 0xF0E442, 0xFF7A3D, 0x4A4B4E};
constexpr ViewShades kHighContrastShades{0x222222, 0xE0E0E0, 0xFFFFFF, 0x909090, 0xFFFFFF,
                                         0xD0D0D0, 0xFFE600, 0xFF5A28, 0x505050};

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
    // The light theme starts from the palette QPalette derives from its window colour; the dark
    // and high-contrast themes set every role they use.
    QPalette palette = theme == Theme::Light ? QPalette(QColor(0xF4, 0xF4, 0xF2)) : QPalette();
    for (const RoleColors& row : kRoleColors) {
        const std::optional<QRgb> rgb = theme == Theme::Light  ? row.light
                                        : theme == Theme::Dark ? std::optional<QRgb>(row.dark)
                                                               : row.highContrast;
        if (rgb) {
            palette.setColor(row.role, QColor::fromRgb(*rgb));
        }
    }
    // Muted text ("no GPU measurement yet", hints) stays readable: at least 4.5:1 (WCAG AA)
    // against the base and the alternate rows (0x80 gave 3.5:1 on the alternate rows).
    if (theme != Theme::Light) {
        const QColor disabled = QColor::fromRgb(theme == Theme::Dark ? 0xA2A29E : 0xC0C0C0);
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
            palette.setColor(QPalette::Disabled, role, disabled);
        }
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
    const ViewShades& shades = colors.highContrast ? kHighContrastShades
                               : colors.dark       ? kDarkShades
                                                   : kLightShades;
    colors.surface = QColor::fromRgb(shades.surface);
    colors.mutedText = QColor::fromRgb(shades.mutedText);
    colors.frame = QColor::fromRgb(shades.frame);
    colors.grid = QColor::fromRgb(shades.grid);
    colors.requested = QColor::fromRgb(shades.requested);
    colors.hatch = QColor::fromRgb(shades.hatch);
    colors.highlight = QColor::fromRgb(shades.highlight);
    colors.warning = QColor::fromRgb(shades.warning);
    colors.inactive = QColor::fromRgb(shades.inactive);
    return colors;
}

void redrawOnPaletteChange(QWidget* widget, std::function<void()> redraw) {
    widget->installEventFilter(new PaletteChangeFilter(widget, std::move(redraw)));
}

} // namespace warpscope::app
