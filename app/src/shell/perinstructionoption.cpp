// The "Per-Instruction Counts" option and its wiring (perinstructionoption.h).
#include "shell/perinstructionoption.h"

#include "gpu/kernelsweeprunner.h"
#include "gpu/notesrunner.h"
#include "gpu/probeclient.h"
#include "panels/perinstructionpanel.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <QWidget>

namespace warpscope::app {

namespace {

void applyToRunners(QWidget* window, bool on) {
    for (KernelSweepRunner* runner : window->findChildren<KernelSweepRunner*>()) {
        KernelMeasureOptions options = runner->options();
        options.perInstruction = on;
        runner->setOptions(options);
    }
    for (NotesRunner* runner : window->findChildren<NotesRunner*>()) {
        KernelMeasureOptions options = runner->options();
        options.perInstruction = on;
        runner->setOptions(options);
    }
}

} // namespace

QAction* addPerInstructionOption(QMenu* menu, QWidget* window, bool useSettings) {
    QAction* action = menu->addAction(QObject::tr("Per-&Instruction Counts"));
    action->setObjectName(QStringLiteral("perInstructionAction"));
    action->setCheckable(true);
    action->setToolTip(QObject::tr(
        "Whole-kernel runs also count each access's own SASS instruction with CUPTI's SASS "
        "metrics (one more launch of the kernel, patched), shown in the Metrics dock's "
        "per-instruction section beside the model and the hardware counters"));
    action->setChecked(useSettings &&
                       QSettings().value(QLatin1String(kPerInstructionSetting), false).toBool());
    QObject::connect(action, &QAction::toggled, window, [window, useSettings](bool on) {
        applyToRunners(window, on);
        if (useSettings) {
            QSettings().setValue(QLatin1String(kPerInstructionSetting), on);
        }
    });
    return action;
}

void connectPerInstruction(QWidget* window, const KernelMeasurementStore* store,
                           const ProbeClient* probe) {
    if (auto* action = window->findChild<QAction*>(QStringLiteral("perInstructionAction"))) {
        applyToRunners(window, action->isChecked());
    }
    auto* panel = window->findChild<PerInstructionPanel*>();
    if (panel == nullptr) {
        return;
    }
    panel->setKernelMeasurementStore(store);
    panel->setConnectedGpu(probe->gpu().name);
    QObject::connect(probe, &ProbeClient::stateChanged, panel,
                     [panel, probe] { panel->setConnectedGpu(probe->gpu().name); });
}

} // namespace warpscope::app
