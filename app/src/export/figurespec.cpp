// Figure names, sizes, themes and formats: the vocabulary of the export dialog and of
// `--export`, kept apart from the rendering (figureexport.cpp) so both read on their own.
#include "export/figureexport.h"

#include "views/theme.h"
#include "views/viewkind.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace warpscope::app {

// ---- Names --------------------------------------------------------------------------------------

QString figureThemeName(FigureTheme theme) {
    switch (theme) {
    case FigureTheme::Light:
        return QStringLiteral("light");
    case FigureTheme::Dark:
        return QStringLiteral("dark");
    case FigureTheme::Print:
        break;
    }
    return QStringLiteral("print");
}

QStringList figureThemeNames() {
    return {QStringLiteral("print"), QStringLiteral("light"), QStringLiteral("dark")};
}

std::optional<FigureTheme> figureThemeFromName(const QString& name) {
    for (FigureTheme theme : {FigureTheme::Print, FigureTheme::Light, FigureTheme::Dark}) {
        if (name == figureThemeName(theme)) {
            return theme;
        }
    }
    return std::nullopt;
}

QPalette figurePalette(FigureTheme theme) {
    switch (theme) {
    case FigureTheme::Light:
        return themePalette(Theme::Light);
    case FigureTheme::Dark:
        return themePalette(Theme::Dark);
    case FigureTheme::Print:
        break;
    }
    QPalette palette = themePalette(Theme::Light);
    for (auto role :
         {QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::Button}) {
        palette.setColor(role, Qt::white);
    }
    for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText}) {
        palette.setColor(role, Qt::black);
    }
    return palette;
}

std::optional<FigureFormat> figureFormatFromName(const QString& pathOrName) {
    QString suffix = QFileInfo(pathOrName).suffix().toLower();
    if (suffix.isEmpty()) {
        suffix = pathOrName.toLower();
    }
    for (FigureFormat format :
         {FigureFormat::Svg, FigureFormat::Pdf, FigureFormat::Png, FigureFormat::Tex}) {
        if (suffix == figureFormatSuffix(format)) {
            return format;
        }
    }
    return std::nullopt;
}

QString figureFormatSuffix(FigureFormat format) {
    switch (format) {
    case FigureFormat::Pdf:
        return QStringLiteral("pdf");
    case FigureFormat::Png:
        return QStringLiteral("png");
    case FigureFormat::Tex:
        return QStringLiteral("tex");
    case FigureFormat::Svg:
        break;
    }
    return QStringLiteral("svg");
}

QSize FigureSize::pixelSize(int dpi) const {
    return QSize(qRound(pageInches.width() * dpi), qRound(pageInches.height() * dpi));
}

QStringList figureSizePresetNames() {
    return {QStringLiteral("slide-16x9"), QStringLiteral("slide-4x3"), QStringLiteral("column")};
}

std::optional<FigureSize> figureSizeFromName(const QString& name) {
    if (name == QLatin1String("slide-16x9")) {
        return FigureSize{name, QSizeF(1280 / kScreenDpi, 7.5), QSizeF(1280, 720)};
    }
    if (name == QLatin1String("slide-4x3")) {
        return FigureSize{name, QSizeF(10, 7.5), QSizeF(960, 720)};
    }
    if (name == QLatin1String("column")) {
        return FigureSize{name, QSizeF(3.5, 2.625), QSizeF(840, 630)};
    }
    static const QRegularExpression explicitSize(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const QRegularExpressionMatch match = explicitSize.match(name);
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    const int width = match.captured(1).toInt();
    const int height = match.captured(2).toInt();
    if (width < 200 || height < 150 || width > 8192 || height > 8192) {
        return std::nullopt;
    }
    return FigureSize{name, QSizeF(width / kScreenDpi, height / kScreenDpi), QSizeF(width, height)};
}

QStringList figureViewNames() {
    return viewKindNames({ViewKind::Warp, ViewKind::Bank, ViewKind::Block, ViewKind::Sweep,
                          ViewKind::Metrics, ViewKind::Grid, ViewKind::Notes, ViewKind::Tile});
}

FigureSpec::FigureSpec() : size(*figureSizeFromName(QStringLiteral("slide-16x9"))) {}

Session sessionForPattern(const NamedPattern& pattern) {
    Session session;
    SessionEntry entry;
    entry.pattern = pattern;
    session.entries.push_back(std::move(entry));
    return session;
}

QString slideFileStem(int index, const QString& title) {
    QString slug = title.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (slug.size() > 48) {
        slug.truncate(48);
        slug.remove(QRegularExpression(QStringLiteral("-+$")));
    }
    if (slug.isEmpty()) {
        slug = QStringLiteral("slide");
    }
    return QStringLiteral("%1-%2").arg(index + 1, 2, 10, QLatin1Char('0')).arg(slug);
}

} // namespace warpscope::app
