// warpscope-screenshot-check: what app.screenshots (test_screenshots.sh) asks of each screenshot
// beyond its size. Usage: warpscope-screenshot-check PNG PRESET VIEW
//   - not blank: many colours, none covering nearly all of the picture;
//   - the expected view visible: the app is built again here (offscreen, 1920x1080, the preset
//     loaded) once for each view, and the screenshot's view area must be nearest, by far, to the
//     requested view's, with that view's widget the one shown;
//   - the view says what core predicts: its title names the preset's access and model numbers.
// Exit 0 when all hold, 1 with a line per failure otherwise.
#include "shell/applicationsetup.h"
#include "shell/mainwindow.h"
#include "views/bankview.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/warpview.h"

#include <warpscope/model.h>
#include <warpscope/preset.h>

#include <QApplication>
#include <QImage>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <map>

namespace {

using namespace warpscope;
using namespace warpscope::app;

int failures = 0;

void fail(const QString& message) {
    std::printf("FAIL: %s\n", qPrintable(message));
    ++failures;
}

/// Mean absolute channel difference of `a` and `b` over `area`, 0..255.
double meanDifference(const QImage& a, const QImage& b, const QRect& area) {
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    qint64 pixels = 0;
    for (int row = area.top(); row <= area.bottom(); row += 2) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = area.left(); col <= area.right(); col += 2) {
            sum +=
                (std::abs(qRed(p[col]) - qRed(q[col])) + std::abs(qGreen(p[col]) - qGreen(q[col])) +
                 std::abs(qBlue(p[col]) - qBlue(q[col]))) /
                3.0;
            ++pixels;
        }
    }
    return pixels == 0 ? 255.0 : sum / static_cast<double>(pixels);
}

void checkNotBlank(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    std::map<QRgb, qint64> counts;
    qint64 pixels = 0;
    for (int y = 0; y < rgb.height(); y += 2) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); x += 2) {
            ++counts[row[x]];
            ++pixels;
        }
    }
    qint64 largest = 0;
    for (const auto& [colour, count] : counts) {
        largest = std::max(largest, count);
    }
    const double share = static_cast<double>(largest) / static_cast<double>(pixels);
    std::printf("  %zu colours, the commonest on %.1f %% of the picture\n", counts.size(),
                100.0 * share);
    if (counts.size() < 32) {
        fail(QStringLiteral("blank: only %1 colours").arg(counts.size()));
    }
    if (share > 0.9) {
        fail(QStringLiteral("blank: one colour covers %1 % of the picture").arg(100.0 * share));
    }
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QStandardPaths::setTestModeEnabled(true);
    QApplication application(argc, argv);
    if (argc != 4) {
        std::fprintf(stderr, "usage: warpscope-screenshot-check PNG PRESET VIEW\n");
        return 2;
    }
    configureApplication(application);
    applyTheme(application, Theme::Light);
    const QString path = QString::fromLocal8Bit(argv[1]);
    const QString preset = QString::fromLocal8Bit(argv[2]);
    const auto expected = MainWindow::viewFromName(QString::fromLocal8Bit(argv[3]));
    const QImage shot(path);
    if (shot.isNull() || !expected) {
        std::fprintf(stderr, "cannot read %s, or %s is no view\n", argv[1], argv[3]);
        return 2;
    }
    std::printf("%s:\n", qPrintable(path));
    checkNotBlank(shot);

    MainWindowOptions options;
    options.useSettings = false;
    options.autosave = false;
    options.confirmDiscard = false;
    MainWindow window(options);
    window.resize(shot.size());
    window.show();
    if (!QTest::qWaitForWindowExposed(&window) || !window.loadPresetById(preset)) {
        std::fprintf(stderr, "cannot show the window with preset %s\n", argv[2]);
        return 2;
    }
    std::map<MainWindow::View, double> difference;
    QRect area;
    for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank, MainWindow::View::Block,
                      MainWindow::View::Sweep}) {
        window.showView(view);
        QApplication::processEvents();
        QTest::qWait(50);
        const QImage picture = window.grab().toImage();
        QWidget* tabs = window.viewTabs();
        area = QRect(tabs->mapTo(&window, QPoint(0, 0)), tabs->size())
                   .intersected(QRect(QPoint(0, 0), shot.size()));
        difference[view] =
            picture.size() == shot.size() ? meanDifference(picture, shot, area) : 255.0;
        std::printf("  differs from the %s view by %.2f (of 255)\n",
                    qPrintable(MainWindow::viewName(view)), difference[view]);
    }
    double nearestOther = 255.0;
    for (const auto& [view, value] : difference) {
        if (view != *expected) {
            nearestOther = std::min(nearestOther, value);
        }
    }
    if (!(difference[*expected] * 2 < nearestOther)) {
        fail(QStringLiteral("the %1 view is not the one visible (%2 from it, %3 from another)")
                 .arg(MainWindow::viewName(*expected))
                 .arg(difference[*expected])
                 .arg(nearestOther));
    }

    // The view shown says what core predicts for the preset.
    window.showView(*expected);
    QApplication::processEvents();
    const Preset* named = findPreset(preset.toStdString());
    const auto access = resolve(named->pattern);
    const ModernPrediction modern = predictModern(access.value());
    const QString expectedCount =
        modern.global ? QStringLiteral("%1 sector(s)").arg(modern.global->sectors)
                      : QStringLiteral("%1 wavefront(s)").arg(modern.shared->wavefronts);
    QString title;
    if (*expected == MainWindow::View::Warp) {
        title = window.warpView()->content().summary;
    } else if (*expected == MainWindow::View::Bank) {
        title = window.bankView()->content().title;
    }
    if (!title.isEmpty() && !title.contains(expectedCount)) {
        fail(QStringLiteral("the view's title \"%1\" lacks \"%2\"").arg(title, expectedCount));
    }
    return failures == 0 ? 0 : 1;
}
