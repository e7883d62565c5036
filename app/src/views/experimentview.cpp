// The probe experiment views' shared parts (experimentview.h).
#include "views/experimentview.h"

#include <QBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QToolTip>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>

namespace warpscope::app {

QLabel* addExperimentTitle(QWidget* parent, QBoxLayout* layout) {
    auto* title = new QLabel(parent);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    title->setWordWrap(true);
    layout->addWidget(title);
    return title;
}

void addExperimentSummaryAndStatus(QWidget* parent, QBoxLayout* layout, const QString& prefix,
                                   QLabel** summary, QLabel** status) {
    *summary = new QLabel(parent);
    (*summary)->setObjectName(prefix + QStringLiteral("Summary"));
    (*summary)->setWordWrap(true);
    (*summary)->setTextInteractionFlags(Qt::TextSelectableByMouse);
    *status = new QLabel(parent);
    (*status)->setObjectName(prefix + QStringLiteral("Status"));
    (*status)->setWordWrap(true);
    layout->addWidget(*summary);
    layout->addWidget(*status);
}

void installChartHover(QWidget* owner, QCustomPlot* plot,
                       const std::function<QString(const QPointF&)>& text) {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    plot->setMouseTracking(true);
    QObject::connect(plot, &QCustomPlot::mouseMove, owner, [plot, text](QMouseEvent* event) {
        const QString tip = text(event->position());
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
        }
    });
#else
    Q_UNUSED(owner);
    Q_UNUSED(plot);
    Q_UNUSED(text);
#endif
}

void setExperimentRunning(QPushButton* run, QPushButton* cancel, QProgressBar* progress,
                          bool running) {
    run->setEnabled(!running);
    cancel->setVisible(running);
    progress->setVisible(running);
    if (running) {
        progress->setRange(0, 0);
    }
}

void setExperimentProgress(QProgressBar* progress, int done, int total) {
    progress->setRange(0, std::max(1, total));
    progress->setValue(done);
}

} // namespace warpscope::app
