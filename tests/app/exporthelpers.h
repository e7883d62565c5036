// What the figure export tests share: the warpscope binary run headless, files read back (SVG,
// PDF), and the golden comparison region by region.
#pragma once

#include <warpscope/preset.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <set>
#include <utility>

namespace warpscope::app::test {

struct ProcessRun {
    int code = -1;
    QString out;
    QString err;
};

/// ProcessRun the warpscope binary as a script would, without a display: the export must pick the
/// offscreen platform itself. Settings go to `configHome` (tests check it stays empty).
inline ProcessRun runWarpscope(const QStringList& arguments, const QString& configHome = {},
                               const QString& platform = {}) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) {
        environment.remove(QString::fromLatin1(name));
    }
    environment.insert(QStringLiteral("QT_FONT_DPI"), QStringLiteral("96"));
    if (!platform.isEmpty()) {
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    }
    if (!configHome.isEmpty()) {
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
    }
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(WARPSCOPE_APP_BINARY), arguments);
    ProcessRun run;
    if (!process.waitForFinished(170000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("warpscope did not finish");
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

inline QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A deck with every built-in preset, one slide each, default views.
inline QString writeAllPresetsDeck(const QDir& dir) {
    QJsonArray slides;
    for (const Preset& preset : builtinPresets()) {
        slides.append(QJsonObject{{QStringLiteral("preset"), QString::fromStdString(preset.id)}});
    }
    const QJsonObject deck{{QStringLiteral("format"), QStringLiteral("warpscope-deck")},
                           {QStringLiteral("version"), 1},
                           {QStringLiteral("title"), QStringLiteral("Every preset")},
                           {QStringLiteral("slides"), slides}};
    const QString path = dir.filePath(QStringLiteral("all-presets.json"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(deck).toJson());
    return path;
}

struct SvgContents {
    bool wellFormed = false;
    QString error;
    int textElements = 0;
    int imageElements = 0;
    QString widthAttribute;
    QStringList texts;
};

inline SvgContents readSvg(const QString& path) {
    SvgContents svg;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        svg.error = QStringLiteral("cannot open");
        return svg;
    }
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            continue;
        }
        if (xml.name() == QLatin1String("svg") && svg.widthAttribute.isEmpty()) {
            svg.widthAttribute = xml.attributes().value(QLatin1String("width")).toString();
        } else if (xml.name() == QLatin1String("text")) {
            ++svg.textElements;
            svg.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (xml.name() == QLatin1String("image")) {
            ++svg.imageElements;
        }
    }
    svg.wellFormed = !xml.hasError();
    svg.error = xml.errorString();
    return svg;
}

/// The first page's size in points, from its /MediaBox.
inline QSizeF pdfPageSize(const QByteArray& pdf) {
    static const QRegularExpression box(
        QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const QRegularExpressionMatch match = box.match(QString::fromLatin1(pdf));
    return match.hasMatch() ? QSizeF(match.captured(1).toDouble(), match.captured(2).toDouble())
                            : QSizeF();
}

/// Pages of a PDF: its /Type /Page objects (not /Pages).
inline int pdfPageCount(const QByteArray& pdf) {
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
    int pages = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next()) {
        ++pages;
    }
    return pages;
}

/// The golden comparison, region by region: the image is cut into kTile x kTile squares and each
/// square's mean difference (of the largest channel difference per pixel, 0..255) is taken. The
/// worst square decides. A whole-image mean hides a wrong lane or digit (a few dozen pixels of a
/// 230 400-pixel image); within one 8x8 square the same change is large.
constexpr int kTile = 8;
/// The worst square may differ by this much on average. The binary's render and the golden one
/// are identical where the golden was made (worst square 0); the smallest wrong below, one digit
/// of the caption at 64 DPI, scores 13, a wrong lane 88 to 129 (measured on the development
/// container, Debian bookworm, DejaVu fonts).
constexpr double kTileTolerance = 8.0;

struct RegionDifference {
    double worstTile = 0; // mean of the worst kTile x kTile square, 0..255
    QPoint worstAt;       // its top-left corner
    int tilesOver = 0;    // squares over kTileTolerance
};

inline RegionDifference compareByRegion(const QImage& a, const QImage& b) {
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    RegionDifference d;
    // Squares overlap by half, so a digit that straddles a square's edge is whole in another.
    for (int top = 0; top < x.height(); top += kTile / 2) {
        for (int left = 0; left < x.width(); left += kTile / 2) {
            qint64 sum = 0;
            int pixels = 0;
            for (int row = top; row < std::min(top + kTile, x.height()); ++row) {
                const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
                const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
                for (int col = left; col < std::min(left + kTile, x.width()); ++col) {
                    sum += std::max({std::abs(qRed(p[col]) - qRed(q[col])),
                                     std::abs(qGreen(p[col]) - qGreen(q[col])),
                                     std::abs(qBlue(p[col]) - qBlue(q[col]))});
                    ++pixels;
                }
            }
            const double mean = static_cast<double>(sum) / pixels;
            d.tilesOver += mean > kTileTolerance ? 1 : 0;
            if (mean > d.worstTile) {
                d.worstTile = mean;
                d.worstAt = QPoint(left, top);
            }
        }
    }
    return d;
}

inline std::ostream& operator<<(std::ostream& out, const RegionDifference& d) {
    return out << "worst 8x8 square " << d.worstTile << " at (" << d.worstAt.x() << ", "
               << d.worstAt.y() << "), " << d.tilesOver << " square(s) over " << kTileTolerance;
}

/// The share (0..1) of the picture the commonest colour covers, and how many colours it has.
inline std::pair<double, int> colourSpread(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, int> counts;
    int largest = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            largest = std::max(largest, ++counts[row[x]]);
        }
    }
    return {static_cast<double>(largest) / (rgb.width() * rgb.height()),
            static_cast<int>(counts.size())};
}

} // namespace warpscope::app::test
