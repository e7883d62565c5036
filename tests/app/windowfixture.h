// A MainWindow on the offscreen platform with no settings, no autosave and no modal questions,
// plus small helpers the app tests share.
#pragma once

#include "document/patterndocument.h"
#include "qtmessagerecorder.h"
#include "shell/mainwindow.h"

#include <warpscope/preset.h>

#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>

#include <memory>

namespace warpscope::app::test {

inline MainWindowOptions quietOptions() {
    MainWindowOptions options;
    options.useSettings = false;
    options.autosave = false;
    options.confirmDiscard = false;
    options.warmUpGpu = false;
    return options;
}

/// The built-in preset `id`; the test fails clearly when the build has no such preset.
inline const Preset& requirePreset(const char* id) {
    const Preset* preset = findPreset(id);
    if (preset == nullptr) {
        ADD_FAILURE() << "no built-in preset \"" << id << "\" (resources/presets.json has "
                      << builtinPresets().size() << ")";
        static const Preset none{};
        return none;
    }
    return *preset;
}

class WindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        clearRecordedQtWarnings();
        window = std::make_unique<MainWindow>(quietOptions());
        window->resize(1600, 1000);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    }
    void TearDown() override { window.reset(); }

    PatternDocument& document() { return *window->document(); }

    void loadPreset(const char* id) {
        ASSERT_TRUE(findPreset(id) != nullptr) << "no built-in preset " << id;
        ASSERT_TRUE(window->loadPresetById(QString::fromLatin1(id)));
        QApplication::processEvents();
    }

    std::unique_ptr<MainWindow> window;
};

} // namespace warpscope::app::test
