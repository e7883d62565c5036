// What the lecture window's files share: a slide as the session setSlide() loads, its title and
// views by name, the metrics table fitted to its numbers, and the resize events of a widget never
// shown.
#pragma once

#include <warpscope/file_format.h>

#include <QString>
#include <QStringList>

class QTableView;
class QWidget;

namespace warpscope::app::lecture {

/// The dynamic property naming the view a slide's frame holds ("warp"), read by
/// lectureGeometry() to find the frames.
inline constexpr char kLectureFrameProperty[] = "lectureFrameOf";

/// Size the metrics table's columns to their texts (bold included: the model puts the first
/// model's column in bold) and the table to its columns, so no number is cut off and the drawing
/// beside it gets the rest of the width.
void fitMetricsTable(QTableView* table);

/// Deliver the resize events that `widget` and its children have pending, as showing it would.
void sendPendingResizes(QWidget* widget);

/// Slide `slide`'s pattern as a session of one entry, as setSlide() loads it: the slide's title
/// (the window draws it, with the caption, in its own type; the views' title lines keep the
/// access description and the numbers) and no caption.
Session slideSession(const DeckSlide& slide);

QString slideTitle(const DeckSlide& slide);

/// The slide's views by name, in order ("warp", "metrics").
QStringList slideViews(const DeckSlide& slide);

} // namespace warpscope::app::lecture
