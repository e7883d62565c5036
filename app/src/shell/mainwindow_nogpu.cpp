// MainWindow without a GPU: once the probe has answered that this machine has no GPU (no driver,
// no device), the Run and Measure actions and buttons say so and are disabled rather than
// answering every press with the same message; a later answer with a GPU (another probe command,
// a restarted probe) enables them again.
#include "shell/mainwindow.h"

#include "gpu/probeclient.h"

#include <QAbstractButton>
#include <QAction>

#include <utility>

namespace warpscope::app {

namespace {

/// Object names of what runs or measures on the GPU: the GPU menu's actions and each tab's
/// button (the sweep, the kernel sweep, the notes and the experiment tabs).
bool runsOnGpu(const QObject* object) {
    const QString name = object->objectName();
    return name == QLatin1String("runOnGpuAction") ||
           name == QLatin1String("runSweepOnGpuAction") || name == QLatin1String("autoRunAction") ||
           name == QLatin1String("sweepRunGpu") || name == QLatin1String("kernelSweepRun") ||
           name == QLatin1String("notesRunButton") || name.endsWith(QLatin1String("RunButton"));
}

} // namespace

void MainWindow::updateGpuAvailability() {
    const bool noGpu = m_probe != nullptr && m_probe->state() == ProbeClient::State::NoGpu;
    if (!noGpu) {
        for (const auto& [object, tip] : std::as_const(m_disabledForNoGpu)) {
            if (auto* action = qobject_cast<QAction*>(object.data())) {
                action->setEnabled(true);
                action->setToolTip(tip);
            } else if (auto* button = qobject_cast<QAbstractButton*>(object.data())) {
                button->setEnabled(true);
                button->setToolTip(tip);
            }
        }
        m_disabledForNoGpu.clear();
        return;
    }
    const QString why =
        tr("No GPU on this machine: %1. The numbers shown are the models' predictions; GPU ▸ "
           "Restart the Probe asks again, File ▸ Open Measurements… shows recorded ones.")
            .arg(m_probe->stateFailure() ? m_probe->stateFailure()->message : m_probe->stateText());
    auto remember = [this](QObject* object, const QString& tip) {
        for (const auto& each : std::as_const(m_disabledForNoGpu)) {
            if (each.first == object) {
                return;
            }
        }
        m_disabledForNoGpu.append({QPointer<QObject>(object), tip});
    };
    for (QAction* action : findChildren<QAction*>()) {
        if (runsOnGpu(action)) {
            remember(action, action->toolTip());
            action->setEnabled(false);
            action->setToolTip(why);
        }
    }
    for (QAbstractButton* button : findChildren<QAbstractButton*>()) {
        if (runsOnGpu(button)) {
            remember(button, button->toolTip());
            button->setEnabled(false);
            button->setToolTip(why);
        }
    }
}

} // namespace warpscope::app
