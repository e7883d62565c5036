// TikZ text for the tile view (tiletikz.h). One chunk is 1.6 by 0.8 units (cm), y downward by
// line; the 8 chunks of a line span 12.8 cm.
#include "export/tiletikz.h"

#include "views/tileview.h"

#include <QStringList>

#include <algorithm>
#include <vector>

namespace warpscope::app {

namespace {

constexpr const char* kTileGroupColors[] = {"E69F00", "56B4E9", "009E73", "CC79A7",
                                            "0072B2", "D55E00", "F0E442", "999999"};

/// Text for LaTeX through the TikZ exports' one escaper; a line break becomes LaTeX's.
QString tex(const QString& text) {
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& line : lines) {
        line = texText(line);
    }
    return lines.join(QStringLiteral("\\\\"));
}

} // namespace

QString tileTikz(const TileView& view, const TikzOptions& options) {
    const TileContent content = view.content();
    QString body;
    body +=
        QStringLiteral("%% warpscope tile view: 128-byte lines by 16-byte chunks (bank groups)\n");
    body += texColorDefinitions(QStringLiteral("wsgroup"), kTileGroupColors);
    body += QStringLiteral(
        "\\tikzset{ws chunk/.style={draw=black!60, minimum width=1.6cm, minimum height=0.8cm, "
        "inner sep=1pt, font=\\scriptsize, align=center, anchor=north west},\n"
        "  ws conflict/.style={draw=red!80!black, line width=1.6pt},\n"
        "  ws label/.style={font=\\scriptsize, anchor=north east},\n"
        "  ws text/.style={font=\\small, anchor=north west, align=left}}\n");
    body += QStringLiteral("\\begin{tikzpicture}[x=1cm, y=-1cm]\n");
    qreal y = 0;
    QStringList header;
    if (!options.title.isEmpty()) {
        header << QStringLiteral("\\textbf{%1}").arg(tex(options.title));
    }
    header << tex(content.title) << tex(content.tmaText);
    if (!content.xorText.isEmpty()) {
        header << tex(content.xorText);
    }
    body += QStringLiteral("\\node[ws text, text width=14cm] at (0,%1) {%2};\n")
                .arg(y)
                .arg(header.join(QStringLiteral("\\\\ ")));
    y += 0.5 * static_cast<qreal>(header.size()) + 0.4;
    for (int c = 0; c < 8; ++c) {
        body += QStringLiteral("\\node[font=\\scriptsize, anchor=south] at (%1,%2) {%3};\n")
                    .arg(1.6 * c + 0.8)
                    .arg(y)
                    .arg(tex(content.chunkLabels[static_cast<std::size_t>(c)]));
    }
    std::vector<std::int64_t> lines;
    for (const TileCell& cell : view.cells()) {
        if (std::find(lines.begin(), lines.end(), cell.line) == lines.end()) {
            lines.push_back(cell.line);
        }
    }
    std::sort(lines.begin(), lines.end());
    for (std::size_t i = 0; i < lines.size() && i < content.lineLabels.size(); ++i) {
        body += QStringLiteral("\\node[ws label] at (-0.1,%1) {%2};\n")
                    .arg(y + 0.8 * static_cast<qreal>(i))
                    .arg(tex(content.lineLabels[i]));
    }
    for (const TileCell& cell : view.cells()) {
        const auto row = std::find(lines.begin(), lines.end(), cell.line) - lines.begin();
        QString style = QStringLiteral("ws chunk");
        if (cell.source) {
            style += QStringLiteral(", fill=wsgroup%1!35").arg((cell.source->byteInRow / 16) % 8);
        } else if (cell.lanes != 0) {
            style += QStringLiteral(", fill=wsgroup7!25");
        }
        if (cell.conflicted != 0) {
            style += QStringLiteral(", ws conflict");
        }
        body += QStringLiteral("\\node[%1] at (%2,%3) {%4};\n")
                    .arg(style)
                    .arg(1.6 * cell.chunk)
                    .arg(y + 0.8 * static_cast<qreal>(row))
                    .arg(cell.label.isEmpty() ? QString() : tex(cell.label));
    }
    y += 0.8 * static_cast<qreal>(lines.size()) + 0.3;
    QString legend = content.legend;
    if (!options.caption.isEmpty()) {
        legend = options.caption + QStringLiteral("\n") + legend;
    }
    body += QStringLiteral("\\node[ws text, text width=14cm] at (0,%1) {%2};\n")
                .arg(y)
                .arg(tex(legend));
    body += QStringLiteral("\\end{tikzpicture}\n");
    if (!options.standalone) {
        return body;
    }
    return QStringLiteral("\\documentclass{article}\n\\usepackage[margin=1.5cm]{geometry}\n"
                          "\\usepackage{tikz}\n\\begin{document}\n") +
           body + QStringLiteral("\\end{document}\n");
}

QString tileTikzFor(PatternDocument& document, LaneHighlight& highlight, const TikzOptions& options,
                    const std::optional<TmaTileLoad>& load) {
    TileView view(&document, &highlight);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    if (load) {
        view.setTmaLoad(load);
    }
    view.resize(1000, 600);
    view.relayout();
    return tileTikz(view, options);
}

} // namespace warpscope::app
