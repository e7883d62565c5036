// File ▸ Export Figure…: a dialog that picks the view (or a composed figure of several views with
// a title and caption), the format, the page size, the DPI and the theme, with a preview; the file
// is written atomically and problems are returned to the caller (the main window shows them in its
// message bar). The choices (and the last folder) are remembered when the window uses settings.
#pragma once

#include "export/figureexport.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace warpscope::app {

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `session` is what the figure shows; `currentView` the view chosen first. An experiment's
    /// key as `currentView` (the window's experiment tab shown) adds its chart to the views,
    /// drawn from `experimentResults` (the window's tabs' results, AppExperiment::results).
    FigureExportDialog(const Session& session, const QString& currentView, bool useSettings,
                       QWidget* parent = nullptr, ExperimentResultsByKey experimentResults = {});
    ~FigureExportDialog() override;

    /// The figure as chosen now.
    FigureSpec spec() const;
    FigureFormat format() const;
    /// Ask for a file name and write the figure; returns the path written, or empty (cancelled or
    /// failed: then `*error` says why).
    QString exportToFile(QString* error);

    QComboBox* viewBox() const { return m_view; }
    QComboBox* formatBox() const { return m_format; }
    QComboBox* sizeBox() const { return m_size; }
    QComboBox* themeBox() const { return m_theme; }
    QSpinBox* dpiBox() const { return m_dpi; }
    QLabel* preview() const { return m_preview; }
    QLineEdit* titleEdit() const { return m_title; }
    QLineEdit* captionEdit() const { return m_caption; }
    /// The composed figure's view ticks ("warp", "bank", ...), each named by its view.
    const QList<QCheckBox*>& figureViewBoxes() const { return m_figureViews; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateControls();
    void updatePreview();
    void readSettings();
    void writeSettings() const;
    /// A view with nothing to draw for this pattern (banks of a global access) is unticked and
    /// disabled, whatever the settings remember; the pattern's own diagram stands in when no
    /// view is left.
    void dropEmptyViews();

    FigureRenderer m_renderer;
    ExperimentResultsByKey m_experimentResults;
    bool m_useSettings;
    QComboBox* m_view;
    QList<QCheckBox*> m_figureViews;
    QComboBox* m_format;
    QComboBox* m_size;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QComboBox* m_theme;
    QLineEdit* m_title;
    QLineEdit* m_caption;
    QLabel* m_pixelSize;
    QLabel* m_preview;
    QList<QWidget*> m_figureOnly; // the rows' labels that only a composed figure uses
};

} // namespace warpscope::app
