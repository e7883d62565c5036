// The app tests' main(): the offscreen platform at a fixed DPI, test-mode standard paths (nothing
// touches the user's files), one QApplication for all tests, and the Qt warning recorder.
#include "qtmessagerecorder.h"
#include "shell/applicationsetup.h"
#include "views/theme.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    if (qEnvironmentVariableIsEmpty("QT_FONT_DPI")) {
        qputenv("QT_FONT_DPI", "96");
    }
    QStandardPaths::setTestModeEnabled(true);
    QApplication application(argc, argv);
    warpscope::app::configureApplication(application);
    QCoreApplication::setOrganizationName(QStringLiteral("warpscope-tests"));
    warpscope::app::applyTheme(application, warpscope::app::Theme::Light);
    warpscope::app::test::installQtMessageRecorder();
    return RUN_ALL_TESTS();
}
