// ProbeCommand: the command that starts warpscope-probe, as the user gives it: a command line
// typed in Probe Settings or after --probe ("ssh -o BatchMode=yes gpu-host warpscope-probe"),
// split into words as a POSIX shell splits them, or a list of arguments, one per line. Nothing is
// expanded ($VAR, ~, globs stay as they are) and no shell runs: the first word is the program.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace warpscope::app {

/// Why a command line cannot be split: what is wrong, and where (1-based column).
struct ShellSplitError {
    QString message;
    int column = 0;
};

/// Splits `line` into words as a POSIX shell does, without expanding anything: blanks separate
/// words; 'single quotes' keep everything up to the next single quote; "double quotes" keep
/// everything but a backslash before $ ` " \ or a newline, which quotes that character; a
/// backslash outside quotes quotes the next character (a backslash before a newline joins the
/// lines). An unterminated quote or a trailing backslash is an error naming its column.
std::variant<QStringList, ShellSplitError> splitShellWords(const QString& line);

/// One word quoted so that splitShellWords() gives it back unchanged (bare when it needs no
/// quotes).
QString shellQuote(const QString& word);
/// Words joined into one line that splitShellWords() splits back into the same words.
QString shellJoin(const QStringList& words);

struct ProbeCommand {
    QString program; // empty: no probe to start (see error)
    QStringList arguments;
    /// Why the command as given cannot be used (empty: it can).
    QString error;

    /// A command line; empty means `defaultProgram` with no arguments.
    static ProbeCommand fromLine(const QString& line, const QString& defaultProgram);
    /// An argument list (the program first); blank entries are dropped, nothing is split.
    static ProbeCommand fromArguments(const QStringList& words, const QString& defaultProgram);

    /// The command as a line a shell would split back into the same words.
    QString display() const;
    bool operator==(const ProbeCommand&) const = default;
};

} // namespace warpscope::app
