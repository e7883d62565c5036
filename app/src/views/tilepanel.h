// TilePanel: the Tile tab, the tile view under a row of fields that choose the TMA load drawn
// beneath the access (swizzle mode, element size, box, shared-memory offset). Core's TMA layout
// refuses what compute capability 9.0 cannot do (the 128B_ATOM modes, an offset not 128-byte
// aligned, a row wider than the swizzle span); the view says why in its second line.
#pragma once

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
class TileView;

class TilePanel : public QWidget {
    Q_OBJECT
public:
    TilePanel(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    TileView* tileView() const { return m_view; }
    QComboBox* swizzleBox() const { return m_swizzle; }
    QComboBox* elementBox() const { return m_element; }
    QSpinBox* boxInnerBox() const { return m_inner; }
    QSpinBox* boxRowsBox() const { return m_rows; }
    QSpinBox* offsetBox() const { return m_offset; }

private:
    void applyFields();
    void syncFields();

    TileView* m_view;
    QComboBox* m_swizzle;
    QComboBox* m_element;
    QSpinBox* m_inner;
    QSpinBox* m_rows;
    QSpinBox* m_offset;
    bool m_syncing = false;
};

} // namespace warpscope::app
