// LaneHighlight: which lanes the user is pointing at, shared by the warp view, the bank view and
// the lane table so that hovering a lane or clicking a sector lights up the same lanes everywhere.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>

namespace warpscope::app {

class LaneHighlight : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// The lane under the mouse, or -1.
    int hoveredLane() const { return m_hoveredLane; }
    /// The lanes of the clicked sector, transaction, wavefront or table rows; 0 for none.
    std::uint32_t selectedLanes() const { return m_selectedLanes; }
    /// What was clicked, for the status bar ("sector 0x20: lanes 8–15").
    QString selectionText() const { return m_selectionText; }

    /// hoveredLane's bit, else selectedLanes.
    std::uint32_t emphasisedLanes() const;

    void setHoveredLane(int lane);
    void setSelectedLanes(std::uint32_t mask, const QString& text);
    void clear();

signals:
    void changed();

private:
    int m_hoveredLane = -1;
    std::uint32_t m_selectedLanes = 0;
    QString m_selectionText;
};

} // namespace warpscope::app
