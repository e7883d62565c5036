// LectureTest: a lecture window on the shipped course deck, at 1600 x 900, and the helpers the
// lecture mode tests share.
#pragma once

#include "lecture/lecturewindow.h"
#include "qtmessagerecorder.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QTest>

#include <memory>
#include <string>

namespace warpscope::app::test {

inline Deck shippedDeck() {
    auto deck = loadDeckFile(builtinDeckPath());
    if (!deck) {
        ADD_FAILURE() << deck.error().describe();
        return {};
    }
    return deck.value();
}

inline int slideOf(const Deck& deck, const std::string& presetId) {
    for (std::size_t i = 0; i < deck.slides.size(); ++i) {
        if (deck.slides[i].presetId == presetId) {
            return static_cast<int>(i);
        }
    }
    ADD_FAILURE() << "the course deck has no slide for " << presetId;
    return 0;
}

class LectureTest : public ::testing::Test {
protected:
    void SetUp() override {
        clearRecordedQtWarnings();
        deck = shippedDeck();
        ASSERT_GE(deck.slides.size(), 25u);
        lecture = std::make_unique<LectureWindow>(deck);
        lecture->present(QSize(1600, 900));
        ASSERT_TRUE(QTest::qWaitForWindowExposed(lecture.get()));
    }
    void TearDown() override { lecture.reset(); }

    void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QTest::keyClick(lecture.get(), key, modifiers);
    }
    QString label(const char* name) const {
        auto* found = lecture->findChild<QLabel*>(QString::fromLatin1(name));
        return found != nullptr ? found->text()
                                : QStringLiteral("(no label %1)").arg(QString::fromLatin1(name));
    }

    Deck deck;
    std::unique_ptr<LectureWindow> lecture;
};

} // namespace warpscope::app::test
