// Figure export: one view (warp, bank, block, sweep, metrics, grid, notes) or several side by side
// with a title and a caption, drawn off any window onto an SVG, PDF or PNG page of a chosen size,
// in a print theme (white paper, black text) or the app's light and dark themes. The views are
// fresh widgets on a private PatternDocument, rendered through QPainter onto QSvgGenerator,
// QPdfWriter or QImage: SVG and PDF come out as vectors with their text as text. Sizes and the DPI
// rule are documented in docs/guide/figures-and-lectures.md ("Exporting figures").
#pragma once

#include "experiments/experimentregistry.h"

#include <warpscope/file_format.h>

#include <QByteArray>
#include <QImage>
#include <QPalette>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <any>
#include <map>
#include <memory>
#include <optional>

namespace warpscope::app {

enum class FigureTheme { Print, Light, Dark };
QString figureThemeName(FigureTheme theme); // "print", "light", "dark"
std::optional<FigureTheme> figureThemeFromName(const QString& name);
QStringList figureThemeNames();
/// The palette the exported views paint with. Print: white paper, black text, colours kept.
QPalette figurePalette(FigureTheme theme);

enum class FigureFormat { Svg, Pdf, Png, Tex };
/// The format a file name asks for by its suffix (".svg", ".pdf", ".png", ".tex"), or a bare
/// format name ("svg"); std::nullopt for anything else.
std::optional<FigureFormat> figureFormatFromName(const QString& pathOrName);
QString figureFormatSuffix(FigureFormat format); // "svg", ...

/// A page size. The views are laid out on `canvas` (logical pixels, as on a 96-DPI screen) and
/// the page is `pageInches` large: SVG and PDF pages have that physical size, and a PNG is
/// pageInches x DPI pixels.
struct FigureSize {
    QString name;
    QSizeF pageInches;
    QSizeF canvas;

    QSize pixelSize(int dpi) const;
    bool operator==(const FigureSize&) const = default;
};
/// "slide-16x9" (13.33 x 7.5 in, canvas 1280x720), "slide-4x3" (10 x 7.5 in, canvas 960x720),
/// "column" (3.5 x 2.625 in, canvas 840x630: a paper's column at 40 %), or "WxH" logical pixels
/// (a page of W/96 x H/96 in). std::nullopt for anything else.
std::optional<FigureSize> figureSizeFromName(const QString& name);
QStringList figureSizePresetNames();

/// The views a figure can show, in their usual order.
QStringList figureViewNames(); // warp, bank, block, sweep, metrics, grid, notes

/// The resolution a figure's canvas is laid out at (CSS pixels): page sizes derive from it.
inline constexpr double kScreenDpi = 96.0;
inline constexpr int kDefaultFigureDpi = 144;
inline constexpr int kMinFigureDpi = 36;
inline constexpr int kMaxFigureDpi = 1200;

struct FigureSpec {
    /// One or more of figureViewNames(), drawn side by side.
    QStringList views{QStringLiteral("warp")};
    /// Title above and caption below the views (a composed figure); empty ones are left out.
    QString title;
    QString caption;
    FigureSize size;
    FigureTheme theme = FigureTheme::Print;
    int dpi = kDefaultFigureDpi;
    /// The warp view's textbook transactions, as its View menu toggle.
    bool showTextbook = true;
    /// .tex: a whole document (else only the styles and the tikzpicture, to \input).
    bool tikzStandalone = true;
    /// The results an experiment's view draws (AppExperiment::results: the window's tab's);
    /// an experiment with none draws what its view shows without results (a deck's slide).
    ExperimentResultsByKey experimentResults;

    FigureSpec();
};

/// The pattern a figure shows: the current entry of `session`, evaluated with its model and
/// textbook options. Owns a private PatternDocument; creating one needs a QApplication.
class FigureRenderer {
public:
    explicit FigureRenderer(const Session& session);
    ~FigureRenderer();
    FigureRenderer(const FigureRenderer&) = delete;
    FigureRenderer& operator=(const FigureRenderer&) = delete;

    /// Why the session cannot be drawn (empty, or its pattern never evaluates), or std::nullopt.
    std::optional<QString> error() const;
    /// The current entry's title and caption.
    QString patternTitle() const;
    QString patternCaption() const;
    /// Whether the pattern accesses shared memory (its natural view is the bank view).
    bool isSharedMemory() const;
    /// The notes experiment the session's notes tab shows ("table-4-11"), empty for none.
    std::string notesExperiment() const;

    /// The figure as the bytes of a file of `format` (Tex: the warp and bank diagrams, or the
    /// notes' bar chart, as TikZ),
    /// or the reason it cannot be made in `*error`.
    QByteArray render(const FigureSpec& spec, FigureFormat format, QString* error) const;
    /// The figure as an image of spec.size.pixelSize(spec.dpi), DPI set.
    QImage renderImage(const FigureSpec& spec) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Render and write `path` (format from its suffix) atomically; returns a message naming the path
/// on failure.
std::optional<QString> writeFigure(const FigureRenderer& renderer, const FigureSpec& spec,
                                   const QString& path);

/// A one-pattern session for a built-in preset or a deck slide.
Session sessionForPattern(const NamedPattern& pattern);

/// "03-misaligned-read-offset-11": a file name stem for slide `index` (0-based) titled `title`.
QString slideFileStem(int index, const QString& title);

} // namespace warpscope::app
