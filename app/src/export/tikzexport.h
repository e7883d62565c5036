// TikZ export of the warp and bank diagrams (and the notes-vs-GPU bar chart), written from the
// Evaluation (lanes, lines, sectors, requested bytes, wavefronts and banks), not from paint calls,
// so a LaTeX course can restyle them: every colour, line width and font is a named style set at the
// top of the picture
// ("ws lane", "ws sector", "ws conflict", ...). The output is a complete document for pdflatex
// or lualatex with nothing but the tikz package (texlive-latex-base and texlive-pictures on
// Debian), or only the \tikzset and the tikzpicture, to \input into a course's own document.
#pragma once

#include <QString>

#include <span>

namespace warpscope::app {

struct Evaluation;
struct NotesComparison;

struct TikzOptions {
    QString title;
    QString caption;
    /// A whole document (\documentclass{article} ... \end{document}); false: only the styles and
    /// the picture.
    bool standalone = true;
};

/// The warp diagram for a global-memory access: the 32 lanes, the lines and sectors they touch
/// with the bytes asked for, and which lanes land in which sector.
/// Text for LaTeX, the one escaper every TikZ export uses: its special characters escaped and the
/// typographic characters the presets use spelled in ASCII LaTeX (pdflatex without font packages).
QString texText(const QString& text);

/// One `\definecolor{<name><i>}{HTML}{<colour>}` line per colour of `hexColors` ("E69F00"), i
/// from 0: the group colours a TikZ picture fills with.
QString texColorDefinitions(const QString& name, std::span<const char* const> hexColors);

QString warpTikz(const Evaluation& evaluation, const TikzOptions& options);
/// The bank diagram for a shared-memory access: 32 bank columns, the words each wavefront reads
/// there, and the banks with conflicts.
QString bankTikz(const Evaluation& evaluation, const TikzOptions& options);
/// warpTikz for global memory, bankTikz for shared memory.
QString diagramTikz(const Evaluation& evaluation, const TikzOptions& options);
/// The notes beside this GPU as a bar chart: one row per experiment row (its label), the notes'
/// bar and this GPU's, each with its number; the GPUs named in a legend, the finding below.
QString notesTikz(const NotesComparison& comparison, const TikzOptions& options);

} // namespace warpscope::app
