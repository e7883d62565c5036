// Writing a chart view's figure to a file: the one path the Notes and Transfers views share.
#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QPainter;

namespace warpscope::app {

/// Writes a figure to `path` in the format its suffix names. A .png is `raster` drawn into an
/// image; .svg and .pdf are `vector` drawn with a vector painter (QCustomPlot's, where the build
/// has it, so that its charts stay vectors), titled `title`. Returns false with `*error` saying
/// why (an unknown suffix, a file that cannot be written).
bool writeChartFigure(const QString& path, QSize size, const QString& title,
                      const std::function<void(QPainter&, QSize)>& raster,
                      const std::function<void(QPainter&, QSize)>& vector, QString* error);

} // namespace warpscope::app
