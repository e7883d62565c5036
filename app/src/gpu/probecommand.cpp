// ProbeCommand: POSIX shell word splitting for the probe command, without any expansion.
#include "gpu/probecommand.h"

#include <QObject>

namespace warpscope::app {

std::variant<QStringList, ShellSplitError> splitShellWords(const QString& line) {
    QStringList words;
    QString word;
    bool inWord = false; // a word has begun (even an empty quoted one: '' is a word)
    const qsizetype n = line.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = line[i];
        if (c == QLatin1Char('\'')) {
            const qsizetype close = line.indexOf(QLatin1Char('\''), i + 1);
            if (close < 0) {
                return ShellSplitError{
                    QObject::tr("the single quote at column %1 is never closed").arg(i + 1),
                    static_cast<int>(i + 1)};
            }
            word += line.mid(i + 1, close - i - 1);
            inWord = true;
            i = close;
        } else if (c == QLatin1Char('"')) {
            const qsizetype open = i;
            bool closed = false;
            for (++i; i < n; ++i) {
                const QChar d = line[i];
                if (d == QLatin1Char('"')) {
                    closed = true;
                    break;
                }
                if (d == QLatin1Char('\\') && i + 1 < n) {
                    const QChar next = line[i + 1];
                    if (next == QLatin1Char('\n')) {
                        ++i; // joined lines
                        continue;
                    }
                    if (next == QLatin1Char('$') || next == QLatin1Char('`') ||
                        next == QLatin1Char('"') || next == QLatin1Char('\\')) {
                        word += next;
                        ++i;
                        continue;
                    }
                }
                word += d;
            }
            if (!closed) {
                return ShellSplitError{
                    QObject::tr("the double quote at column %1 is never closed").arg(open + 1),
                    static_cast<int>(open + 1)};
            }
            inWord = true;
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 >= n) {
                return ShellSplitError{
                    QObject::tr("the backslash at column %1 ends the line and quotes nothing")
                        .arg(i + 1),
                    static_cast<int>(i + 1)};
            }
            ++i;
            if (line[i] != QLatin1Char('\n')) {
                word += line[i];
                inWord = true;
            }
        } else if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
            if (inWord) {
                words.append(word);
                word.clear();
                inWord = false;
            }
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord) {
        words.append(word);
    }
    return words;
}

QString shellQuote(const QString& word) {
    if (word.isEmpty()) {
        return QStringLiteral("''");
    }
    bool plain = true;
    for (const QChar c : word) {
        if (!(c.isLetterOrNumber() || QStringLiteral("-_./=:,+@%").contains(c))) {
            plain = false;
            break;
        }
    }
    if (plain) {
        return word;
    }
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString shellJoin(const QStringList& words) {
    QStringList quoted;
    for (const QString& word : words) {
        quoted.append(shellQuote(word));
    }
    return quoted.join(QLatin1Char(' '));
}

ProbeCommand ProbeCommand::fromLine(const QString& line, const QString& defaultProgram) {
    auto split = splitShellWords(line);
    if (const auto* error = std::get_if<ShellSplitError>(&split)) {
        ProbeCommand command;
        command.error = QObject::tr("the probe command \"%1\" cannot be split into words: %2. "
                                    "Quote as a shell would, or give one argument per line in "
                                    "GPU ▸ Probe Settings")
                            .arg(line, error->message);
        return command;
    }
    QStringList words = std::get<QStringList>(split);
    ProbeCommand command;
    if (words.isEmpty()) {
        command.program = defaultProgram;
        return command;
    }
    command.program = words.takeFirst(); // '' stays an (empty) argument, as in a shell
    command.arguments = words;
    return command;
}

ProbeCommand ProbeCommand::fromArguments(const QStringList& words, const QString& defaultProgram) {
    QStringList kept;
    for (const QString& word : words) {
        if (!word.isEmpty()) {
            kept.append(word);
        }
    }
    ProbeCommand command;
    if (kept.isEmpty()) {
        command.program = defaultProgram;
        return command;
    }
    command.program = kept.takeFirst();
    command.arguments = kept;
    return command;
}

QString ProbeCommand::display() const {
    QStringList words{program};
    words.append(arguments);
    return shellJoin(words);
}

} // namespace warpscope::app
