// TikZ text for the warp and bank diagrams. Coordinates are in "lane units" (one lane box wide,
// 0.42 cm by default: the 32 lanes span 13.4 cm, inside an article's page), y upward.
#include "export/tikzexport.h"

#include "document/evaluation.h"
#include "gpu/notesexperiment.h"
#include "views/viewpainting.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <set>

namespace warpscope::app {

namespace {

constexpr std::array<const char*, 7> kWarpGroupColors = {"E69F00", "56B4E9", "009E73", "CC79A7",
                                                         "0072B2", "D55E00", "F0E442"};

QString tikzNumber(double value) {
    QString text = QString::number(value, 'f', 3);
    while (text.contains(QLatin1Char('.')) &&
           (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.')))) {
        text.chop(1);
    }
    return text == QLatin1String("-0") ? QStringLiteral("0") : text;
}

QString preamble(const QString& kind) {
    QString tex;
    tex +=
        QStringLiteral("%% warpscope %1 diagram (TikZ). Compile alone with pdflatex or lualatex,\n"
                       "%% or copy the \\tikzset and the tikzpicture into a document that loads "
                       "tikz.\n"
                       "%% Restyle through the ws ... styles below.\n")
            .arg(kind);
    tex += texColorDefinitions(QStringLiteral("wsGroup"), kWarpGroupColors);
    tex += QStringLiteral(
        "\\tikzset{\n"
        "  ws picture/.style={x=0.42cm, y=0.42cm, font=\\sffamily},\n"
        "  ws title/.style={anchor=south west, font=\\sffamily\\bfseries},\n"
        "  ws summary/.style={anchor=south west, font=\\sffamily\\small},\n"
        "  ws caption/.style={anchor=north west, font=\\sffamily\\small, text width=13cm,"
        " align=left},\n"
        "  ws label/.style={font=\\sffamily\\scriptsize},\n"
        "  ws small label/.style={font=\\sffamily\\tiny},\n"
        "  ws lane/.style={draw=black, fill=white, line width=0.4pt},\n"
        "  ws inactive lane/.style={draw=black!40, fill=black!8, line width=0.4pt},\n"
        "  ws lane number/.style={font=\\sffamily\\tiny},\n"
        "  ws line/.style={draw=black, line width=0.8pt},\n"
        "  ws sector/.style={draw=black!70, fill=#1!35, line width=0.4pt},\n"
        "  ws unused sector/.style={draw=black!40, fill=black!4, line width=0.4pt},\n"
        "  ws requested/.style={fill=black!85},\n"
        "  ws link/.style={draw=#1, line width=0.5pt},\n"
        "  ws bank/.style={draw=black!30, fill=black!3, line width=0.3pt},\n"
        "  ws bank number/.style={font=\\sffamily\\tiny},\n"
        "  ws word/.style={draw=black!70, fill=#1!40, line width=0.4pt},\n"
        "  ws word label/.style={font=\\sffamily\\tiny},\n"
        "  ws conflict/.style={draw=wsGroup5, line width=1.2pt},\n"
        "  ws conflict label/.style={font=\\sffamily\\scriptsize\\bfseries, text=wsGroup5},\n"
        "}\n");
    return tex;
}

QString wrapDocument(const QString& body, const TikzOptions& options) {
    if (!options.standalone) {
        return body;
    }
    return QStringLiteral("\\documentclass{article}\n"
                          "\\usepackage{tikz}\n"
                          "\\pagestyle{empty}\n"
                          "%% Wider text than article's default, without extra packages: the "
                          "diagram is 14 to 18 cm wide.\n"
                          "\\setlength{\\textwidth}{18.5cm}\n"
                          "\\setlength{\\oddsidemargin}{-1.2cm}\n"
                          "\\setlength{\\textheight}{24cm}\n"
                          "\\setlength{\\topmargin}{-1.5cm}\n"
                          "\\begin{document}\n"
                          "\\noindent\n") +
           body + QStringLiteral("\\end{document}\n");
}

QString headerNodes(const TikzOptions& options, const QString& summary, double top) {
    QString tex;
    double y = top;
    tex += QStringLiteral("  \\node[ws summary] at (0,%1) {%2};\n")
               .arg(tikzNumber(y), texText(summary));
    if (!options.title.isEmpty()) {
        y += 1.3;
        tex += QStringLiteral("  \\node[ws title] at (0,%1) {%2};\n")
                   .arg(tikzNumber(y), texText(options.title));
    }
    return tex;
}

QString captionNode(const TikzOptions& options, double bottom) {
    if (options.caption.isEmpty()) {
        return {};
    }
    return QStringLiteral("  \\node[ws caption] at (0,%1) {%2};\n")
        .arg(tikzNumber(bottom), texText(options.caption));
}

/// "loads", "stores" or "async copies", for the summary lines.
const char* opPlural(AccessOp op) {
    switch (op) {
    case AccessOp::Load:
        return "loads";
    case AccessOp::Store:
        return "stores";
    case AccessOp::CopyAsync:
        return "async copies";
    }
    return "loads";
}

} // namespace

/// Text for LaTeX: its special characters escaped and the typographic characters the presets use
/// spelled in ASCII LaTeX (works with pdflatex without font packages).
QString texColorDefinitions(const QString& name, std::span<const char* const> hexColors) {
    QString definitions;
    for (std::size_t i = 0; i < hexColors.size(); ++i) {
        definitions += QStringLiteral("\\definecolor{%1%2}{HTML}{%3}\n")
                           .arg(name, QString::number(i), QLatin1String(hexColors[i]));
    }
    return definitions;
}

QString texText(const QString& text) {
    QString out;
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '\\':
            out += QStringLiteral("\\textbackslash{}");
            break;
        case '{':
        case '}':
        case '$':
        case '&':
        case '#':
        case '_':
        case '%':
            out += QLatin1Char('\\') + c;
            break;
        case '^':
            out += QStringLiteral("\\^{}");
            break;
        case '~':
            out += QStringLiteral("$\\sim$");
            break;
        case '<':
            out += QStringLiteral("$<$");
            break;
        case '>':
            out += QStringLiteral("$>$");
            break;
        case 0x2013:
            out += QStringLiteral("--");
            break;
        case 0x2014:
            out += QStringLiteral("---");
            break;
        case 0x00D7:
            out += QStringLiteral("$\\times$");
            break;
        case 0x2192:
            out += QStringLiteral("$\\to$");
            break;
        case 0x2260:
            out += QStringLiteral("$\\neq$");
            break;
        case 0x2264:
            out += QStringLiteral("$\\leq$");
            break;
        case 0x2265:
            out += QStringLiteral("$\\geq$");
            break;
        case 0x00B7:
        case 0x22C5:
            out += QStringLiteral("$\\cdot$");
            break;
        case 0x2026:
            out += QStringLiteral("\\ldots{}");
            break;
        case 0x2018:
            out += QLatin1Char('`');
            break;
        case 0x2019:
            out += QLatin1Char('\'');
            break;
        case 0x201C:
            out += QStringLiteral("``");
            break;
        case 0x201D:
            out += QStringLiteral("''");
            break;
        case 0x26A0: // the warning sign
            out += QStringLiteral("(!)");
            break;
        case 0x00A0:
        case 0x202F:
            out += QLatin1Char('~');
            break;
        default:
            if (c.unicode() < 0x80) {
                out += c;
            } else {
                out += QLatin1Char('?'); // beyond what a stock pdflatex can set
            }
        }
    }
    return out;
}

QString warpTikz(const Evaluation& evaluation, const TikzOptions& options) {
    QString body = preamble(QStringLiteral("warp"));
    body += QStringLiteral("\\begin{tikzpicture}[ws picture]\n");
    const int width = evaluation.access.kind.widthBytes;
    const auto& global = evaluation.modern.global;

    QString summary;
    if (global) {
        summary = QStringLiteral("%1 lanes, %2-byte %3: %4 sectors in %5 lines, %6 of %7 bytes "
                                 "used (%8%)")
                      .arg(evaluation.access.activeLaneCount())
                      .arg(width)
                      .arg(QLatin1String(opPlural(evaluation.access.kind.op)))
                      .arg(global->sectors)
                      .arg(global->lines)
                      .arg(global->uniqueBytesRequested)
                      .arg(global->bytesMoved)
                      .arg(tikzNumber(global->efficiency * 100.0));
    } else {
        summary = QStringLiteral("A shared-memory access: see the bank diagram.");
    }
    body += headerNodes(options, summary, 1.4);

    // Lanes.
    body += QStringLiteral("  %% Lanes 0-31\n");
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const bool active = evaluation.access.addresses[static_cast<std::size_t>(lane)].has_value();
        body += QStringLiteral("  \\draw[%1] (%2,0) rectangle (%3,1);\n")
                    .arg(QLatin1String(active ? "ws lane" : "ws inactive lane"))
                    .arg(tikzNumber(lane + 0.05), tikzNumber(lane + 0.95));
        body += QStringLiteral("  \\node[ws lane number] at (%1,0.5) {%2};\n")
                    .arg(tikzNumber(lane + 0.5))
                    .arg(lane);
    }
    body += QStringLiteral("  \\node[ws label, anchor=east] at (-0.2,0.5) {lane};\n");

    double bottom = -1.0;
    if (global) {
        // Memory: the touched 128-byte lines, four to a row, each split into its four sectors.
        const double lineWidth = 7.8;
        const double byteWidth = lineWidth / kLineBytes;
        auto lineOrigin = [&](std::size_t index) {
            const double row = static_cast<double>(index / 4);
            return std::pair<double, double>{static_cast<double>(index % 4) * 8.0 + 0.1,
                                             -4.5 - row * 3.0};
        };
        body += QStringLiteral("  %% Memory: lines (128 B) and sectors (32 B); black bars are the "
                               "bytes the lanes asked for\n");
        for (std::size_t i = 0; i < global->lineList.size(); ++i) {
            const LineUse& line = global->lineList[i];
            const auto [x0, y0] = lineOrigin(i);
            const int group = static_cast<int>(i % kWarpGroupColors.size());
            for (int s = 0; s < kLineBytes / kSectorBytes; ++s) {
                const double sx = x0 + s * kSectorBytes * byteWidth;
                const bool touched = (line.sectorMask >> s) & 1U;
                body += QStringLiteral("  \\draw[%1] (%2,%3) rectangle (%4,%5);\n")
                            .arg(touched ? QStringLiteral("ws sector=wsGroup%1").arg(group)
                                         : QStringLiteral("ws unused sector"))
                            .arg(tikzNumber(sx), tikzNumber(y0),
                                 tikzNumber(sx + kSectorBytes * byteWidth), tikzNumber(y0 + 1.2));
            }
            body += QStringLiteral("  \\draw[ws line] (%1,%2) rectangle (%3,%4);\n")
                        .arg(tikzNumber(x0), tikzNumber(y0), tikzNumber(x0 + lineWidth),
                             tikzNumber(y0 + 1.2));
            body += QStringLiteral("  \\node[ws small label, anchor=north west] at (%1,%2) "
                                   "{line %3};\n")
                        .arg(tikzNumber(x0), tikzNumber(y0), texText(formatAddress(line.address)));
            bottom = std::min(bottom, y0 - 1.2);
        }
        // Requested bytes and the lane links.
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = evaluation.access.addresses[static_cast<std::size_t>(lane)];
            if (!address) {
                continue;
            }
            const auto it = std::find_if(
                global->lineList.begin(), global->lineList.end(), [&](const LineUse& line) {
                    return *address >= line.address && *address < line.address + kLineBytes;
                });
            if (it == global->lineList.end()) {
                continue;
            }
            const auto index = static_cast<std::size_t>(it - global->lineList.begin());
            const auto [x0, y0] = lineOrigin(index);
            const double bx0 = x0 + static_cast<double>(*address - it->address) * byteWidth;
            const double bx1 =
                x0 + static_cast<double>(
                         std::min<std::int64_t>(*address + width, it->address + kLineBytes) -
                         it->address) *
                         byteWidth;
            body += QStringLiteral("  \\fill[ws requested] (%1,%2) rectangle (%3,%4);\n")
                        .arg(tikzNumber(bx0), tikzNumber(y0 + 0.15), tikzNumber(bx1),
                             tikzNumber(y0 + 0.45));
            body +=
                QStringLiteral("  \\draw[ws link=wsGroup%1] (%2,0) -- (%3,%4); %% lane %5\n")
                    .arg(static_cast<int>(index % kWarpGroupColors.size()))
                    .arg(tikzNumber(lane + 0.5), tikzNumber((bx0 + bx1) / 2), tikzNumber(y0 + 1.2))
                    .arg(lane);
        }
    }
    body += captionNode(options, bottom - 0.4);
    body += QStringLiteral("\\end{tikzpicture}\n");
    return wrapDocument(body, options);
}

QString bankTikz(const Evaluation& evaluation, const TikzOptions& options) {
    QString body = preamble(QStringLiteral("bank"));
    body += QStringLiteral("\\begin{tikzpicture}[ws picture]\n");
    const auto& shared = evaluation.modern.shared;
    QString summary;
    if (shared) {
        summary = QStringLiteral("%1-byte %2: %3 wavefronts, %4 bank conflicts")
                      .arg(evaluation.access.kind.widthBytes)
                      .arg(QLatin1String(opPlural(evaluation.access.kind.op)))
                      .arg(shared->wavefronts)
                      .arg(shared->bankConflicts);
    } else {
        summary = QStringLiteral("A global-memory access: see the warp diagram.");
    }
    body += headerNodes(options, summary, 1.4);

    // Conflict degree per bank: distinct words it serves within one phase, at most.
    std::array<int, kBankCount> degree{};
    if (shared) {
        for (std::uint32_t phase : shared->phases) {
            for (int bank = 0; bank < kBankCount; ++bank) {
                std::set<std::int64_t> words;
                for (const Wavefront& wavefront : shared->wavefrontList) {
                    const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
                    if ((wavefront.laneMask & phase) != 0 && word >= 0) {
                        words.insert(word);
                    }
                }
                degree[static_cast<std::size_t>(bank)] = std::max(
                    degree[static_cast<std::size_t>(bank)], static_cast<int>(words.size()));
            }
        }
    }

    body += QStringLiteral("  %% Bank numbers; banks with a conflict are outlined\n");
    for (int bank = 0; bank < kBankCount; ++bank) {
        const bool conflict = degree[static_cast<std::size_t>(bank)] > 1;
        body += QStringLiteral("  \\draw[ws bank%1] (%2,0) rectangle (%3,1);\n")
                    .arg(QLatin1String(conflict ? ", ws conflict" : ""))
                    .arg(tikzNumber(bank + 0.05), tikzNumber(bank + 0.95));
        body += QStringLiteral("  \\node[ws bank number] at (%1,0.5) {%2};\n")
                    .arg(tikzNumber(bank + 0.5))
                    .arg(bank);
    }
    body += QStringLiteral("  \\node[ws label, anchor=east] at (-0.2,0.5) {bank};\n");

    double bottom = -0.5;
    if (shared) {
        body += QStringLiteral("  %% One row per wavefront: the 4-byte word it reads or writes in "
                               "each bank (labelled with the word's row, address / 128)\n");
        for (std::size_t w = 0; w < shared->wavefrontList.size(); ++w) {
            const Wavefront& wavefront = shared->wavefrontList[w];
            const double y = -1.6 - static_cast<double>(w) * 1.3;
            const int group = static_cast<int>(w % kWarpGroupColors.size());
            for (int bank = 0; bank < kBankCount; ++bank) {
                const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
                if (word < 0) {
                    continue;
                }
                body += QStringLiteral("  \\draw[ws word=wsGroup%1] (%2,%3) rectangle (%4,%5);\n")
                            .arg(group)
                            .arg(tikzNumber(bank + 0.05), tikzNumber(y), tikzNumber(bank + 0.95),
                                 tikzNumber(y + 1.0));
                body += QStringLiteral("  \\node[ws word label] at (%1,%2) {%3};\n")
                            .arg(tikzNumber(bank + 0.5), tikzNumber(y + 0.5))
                            .arg(word / kBankCount);
            }
            body += QStringLiteral("  \\node[ws label, anchor=west] at (32.3,%1) {wavefront %2: "
                                   "lanes %3};\n")
                        .arg(tikzNumber(y + 0.5))
                        .arg(w + 1)
                        .arg(texText(laneListText(wavefront.laneMask)));
            bottom = y - 0.3;
        }
        // Conflict degrees under the grid.
        for (int bank = 0; bank < kBankCount; ++bank) {
            const int n = degree[static_cast<std::size_t>(bank)];
            if (n > 1) {
                body += QStringLiteral("  \\node[ws conflict label] at (%1,%2) {%3$\\times$};\n")
                            .arg(tikzNumber(bank + 0.5), tikzNumber(bottom - 0.5))
                            .arg(n);
            }
        }
        bottom -= 1.2;
    }
    body += captionNode(options, bottom - 0.3);
    body += QStringLiteral("\\end{tikzpicture}\n");
    return wrapDocument(body, options);
}

QString diagramTikz(const Evaluation& evaluation, const TikzOptions& options) {
    return evaluation.modern.shared ? bankTikz(evaluation, options) : warpTikz(evaluation, options);
}

QString notesTikz(const NotesComparison& comparison, const TikzOptions& options) {
    QString body = preamble(QStringLiteral("notes-vs-GPU bar chart"));
    body += QStringLiteral("\\tikzset{\n"
                           "  ws notes bar/.style={draw=black!60, fill=black!25},\n"
                           "  ws gpu bar/.style={draw=black!60, fill=wsGroup4!70},\n"
                           "  ws axis/.style={draw=black, line width=0.4pt},\n"
                           "}\n");
    body += QStringLiteral("\\begin{tikzpicture}[ws picture]\n");
    const NotesExperiment* experiment = comparison.experiment;
    const QString unit = experiment != nullptr ? quantityUnit(experiment->quantity) : QString();
    // Where the notes publish no number at all, the first series is the model's count for one
    // warp (experiment->modelAccess), as in the app's chart: never a chart without bars.
    const bool modelSeries = comparison.notesRows == 0 && !comparison.modelName.isEmpty();
    const auto firstValue = [modelSeries](const NotesComparisonRow& row) {
        return row.notes ? row.notes : (modelSeries ? row.model : std::nullopt);
    };
    // Each series on its own scale, as the app's chart has an axis for each: the notes' GPU and
    // this one differ by an order of magnitude, and the shapes are what the rows compare. The
    // numbers stay on the bars.
    double mostNotes = 0;
    double mostMeasured = 0;
    for (const NotesComparisonRow& row : comparison.rows) {
        mostNotes = std::max(mostNotes, firstValue(row).value_or(0.0));
        mostMeasured = std::max(mostMeasured, row.measured.value_or(0.0));
    }
    // Rows run downward from y = 0: two bars of 0.8 units each and a gap; 24 units of bar length.
    constexpr double kLength = 24.0;
    constexpr double kLabel = 6.0;
    const double scales[] = {mostNotes > 0 ? kLength / mostNotes : 0.0,
                             mostMeasured > 0 ? kLength / mostMeasured : 0.0};
    double y = 0;
    for (const NotesComparisonRow& row : comparison.rows) {
        body += QStringLiteral("  %% %1\n").arg(texText(row.label));
        body += QStringLiteral("  \\node[ws label, anchor=east] at (%1,%2) {%3};\n")
                    .arg(tikzNumber(kLabel - 0.3), tikzNumber(y - 0.8), texText(row.label));
        const std::optional<double> bars[] = {firstValue(row), row.measured};
        const char* styles[] = {"ws notes bar", "ws gpu bar"};
        for (int i = 0; i < 2; ++i) {
            const double top = y - 0.8 * i;
            if (bars[i]) {
                const double end = kLabel + *bars[i] * scales[i];
                body += QStringLiteral("  \\draw[%1] (%2,%3) rectangle (%4,%5);\n")
                            .arg(QLatin1String(styles[i]), tikzNumber(kLabel),
                                 tikzNumber(top - 0.75), tikzNumber(end), tikzNumber(top - 0.05));
                body += QStringLiteral("  \\node[ws small label, anchor=west] at (%1,%2) {%3};\n")
                            .arg(tikzNumber(end + 0.1), tikzNumber(top - 0.4),
                                 texText(i == 0 && !row.notes ? tikzNumber(*bars[i])
                                                              : QString::number(*bars[i], 'f', 1)));
            } else {
                body += QStringLiteral("  \\node[ws small label, anchor=west] at (%1,%2) {%3};\n")
                            .arg(tikzNumber(kLabel + 0.1), tikzNumber(top - 0.4),
                                 i == 0 ? QStringLiteral("notes: no number")
                                        : QStringLiteral("this GPU: not measured"));
            }
        }
        y -= 2.2;
    }
    body += QStringLiteral("  \\draw[ws axis] (%1,0.2) -- (%1,%2);\n")
                .arg(tikzNumber(kLabel), tikzNumber(y + 0.6));
    // Legend and axis name under the bars.
    double below = y - 0.2;
    body += QStringLiteral("  \\draw[ws notes bar] (%1,%2) rectangle ++(0.8,0.6);\n")
                .arg(tikzNumber(kLabel), tikzNumber(below - 0.6));
    body +=
        QStringLiteral("  \\node[ws label, anchor=west] at (%1,%2) {%3};\n")
            .arg(tikzNumber(kLabel + 1.0), tikzNumber(below - 0.3),
                 texText(modelSeries ? comparison.modelName
                                     : QStringLiteral("the notes (%1)").arg(comparison.notesGpu)));
    below -= 1.0;
    body += QStringLiteral("  \\draw[ws gpu bar] (%1,%2) rectangle ++(0.8,0.6);\n")
                .arg(tikzNumber(kLabel), tikzNumber(below - 0.6));
    body += QStringLiteral("  \\node[ws label, anchor=west] at (%1,%2) {%3};\n")
                .arg(tikzNumber(kLabel + 1.0), tikzNumber(below - 0.3),
                     texText(comparison.measuredGpu.isEmpty()
                                 ? QStringLiteral("this GPU: no measurement recorded")
                                 : QStringLiteral("this GPU (%1)").arg(comparison.measuredGpu)));
    below -= 1.0;
    if (experiment != nullptr) {
        body += QStringLiteral("  \\node[ws label, anchor=west] at (%1,%2) {%3};\n")
                    .arg(tikzNumber(kLabel), tikzNumber(below - 0.3),
                         texText((modelSeries ? QStringLiteral("the model per warp; this GPU: "
                                                               "%1 (%2); rows: %3; each series "
                                                               "drawn to its own largest value")
                                              : QStringLiteral("%1 (%2); rows: %3; each series "
                                                               "drawn to its own largest value"))
                                     .arg(quantityName(experiment->quantity), unit,
                                          experiment->axisLabel)));
        below -= 1.0;
    }
    if (!comparison.finding.isEmpty()) {
        body += QStringLiteral("  \\node[ws caption, anchor=north west] at (0,%1) {%2};\n")
                    .arg(tikzNumber(below), texText(comparison.finding));
        below -= 2.0;
    }
    const QString title =
        options.title.isEmpty() && experiment != nullptr ? experiment->title : options.title;
    if (!title.isEmpty()) {
        body += QStringLiteral("  \\node[ws title] at (0,1.0) {%1};\n").arg(texText(title));
    }
    body += captionNode(options, below);
    body += QStringLiteral("\\end{tikzpicture}\n");
    return wrapDocument(body, options);
}

} // namespace warpscope::app
