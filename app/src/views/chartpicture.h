// ChartPicture: a chart drawn ahead as a picture, with the key of what it shows (the notes view's
// and the experiment views' charts keep a few: views/picturechart.h).
#pragma once

#include <QImage>
#include <QString>

namespace warpscope::app {

/// A chart drawn ahead as a picture (at the chart's size and device pixel ratio), with a key of
/// everything it is drawn from (its data, labels, colours, type, fonts).
struct ChartPicture {
    QString key;
    QImage image;
};

} // namespace warpscope::app
