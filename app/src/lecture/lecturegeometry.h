// The lecture window's layout as JSON (the `geometry:FILE` step of --lecture-script): for each
// view the slide shows, the room it got against the room it needs, its scroll bars and whether it
// lies inside the slide; for the title, caption and step line, the height their wrapped text
// needs. scripts/lecture-check.sh steps through a deck with it and fails on any clipped view.
#pragma once

#include <QJsonObject>
#include <QRect>
#include <QSize>
#include <QStringList>

namespace warpscope::app {

class LectureWindow;

/// A rectangle as {"x", "y", "width", "height"} and a size as {"width", "height"}: the form of
/// this report and of the main window's --geometry-report.
QJsonObject rectObject(const QRect& rect);
QJsonObject sizeObject(const QSize& size);

/// The slide shown now, laid out as it is: "slide", "slides", "title", "window", "viewArea",
/// "views" (one object per view: "name", "rect", "needed", "got", scroll bars, "inside"),
/// "texts", and "problems": one sentence per clipped view or text (empty when none is).
QJsonObject lectureGeometry(const LectureWindow& window);

/// The problems of a lectureGeometry() report, as sentences.
QStringList lectureGeometryProblems(const QJsonObject& report);

/// Wait (at most `milliseconds`) until the slide's views have finished what they compute in the
/// background (the grid view's heat map), so that a capture or a report shows the slide as it
/// stays.
void waitForSlideViews(const LectureWindow& window, int milliseconds);

} // namespace warpscope::app
