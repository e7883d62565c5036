// LaneHighlight: a tiny shared state with one change signal.
#include "views/lanehighlight.h"

namespace warpscope::app {

std::uint32_t LaneHighlight::emphasisedLanes() const {
    if (m_hoveredLane >= 0 && m_hoveredLane < 32) {
        return 1u << m_hoveredLane;
    }
    return m_selectedLanes;
}

void LaneHighlight::setHoveredLane(int lane) {
    if (lane < -1 || lane >= 32) {
        lane = -1;
    }
    if (lane == m_hoveredLane) {
        return;
    }
    m_hoveredLane = lane;
    emit changed();
}

void LaneHighlight::setSelectedLanes(std::uint32_t mask, const QString& text) {
    if (mask == m_selectedLanes && text == m_selectionText) {
        return;
    }
    m_selectedLanes = mask;
    m_selectionText = text;
    emit changed();
}

void LaneHighlight::clear() {
    if (m_hoveredLane == -1 && m_selectedLanes == 0) {
        return;
    }
    m_hoveredLane = -1;
    m_selectedLanes = 0;
    m_selectionText.clear();
    emit changed();
}

} // namespace warpscope::app
