// Light and dark themes for the whole app, and the colours the views paint with. Group colours
// are the Okabe-Ito palette (safe for the common colour-vision deficiencies); the views pair each
// with a shape or a hatching so no information rides on colour alone. The high-contrast theme is
// lecture mode's (a projector in a lit room): black ground, white and yellow text, saturated
// groups.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <functional>

class QApplication;
class QWidget;

namespace warpscope::app {

enum class Theme { Light, Dark, HighContrast };

QString themeName(Theme theme); // "light", "dark", "high-contrast": the settings' words
Theme themeFromName(const QString& name);

/// Fusion style with the theme's palette.
void applyTheme(QApplication& application, Theme theme);
QPalette themePalette(Theme theme);

/// Calls `redraw` whenever `widget`'s palette changes (a theme switch, a lecture slide's colours),
/// before the widget itself handles the change: for views whose charts keep colours of their own.
void redrawOnPaletteChange(QWidget* widget, std::function<void()> redraw);

/// Colours for the custom views, derived from a widget's palette so they follow the theme.
struct ViewColors {
    bool dark = false;
    bool highContrast = false;
    QColor background;
    QColor surface; // memory and bank cells that nothing touches
    QColor text;
    QColor mutedText;
    QColor frame;     // line and bank borders
    QColor grid;      // word and sector dividers
    QColor requested; // bytes lanes asked for (solid)
    QColor hatch;     // fetched but unused bytes (hatched)
    QColor highlight; // hover and selection
    QColor warning;   // conflicts, errors
    QColor inactive;

    /// Okabe-Ito colour for group `index` (sectors' lines, transactions, wavefronts, series).
    QColor group(int index) const;
    /// A lighter (or, in the dark theme, darker) version of group(index) used as a fill.
    QColor groupFill(int index) const;

    static ViewColors fromPalette(const QPalette& palette);
};

} // namespace warpscope::app
