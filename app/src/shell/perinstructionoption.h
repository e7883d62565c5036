// The GPU menu's "Per-Instruction Counts" option (issue 32): when checked, every whole-kernel run
// (the sweep tab's and the notes tab's) asks the probe for each access's own SASS instruction
// counts as well (measure_kernel's per_instruction: one more launch, patched by CUPTI), which the
// metrics dock's per-instruction section then shows. Remembered in settings (probe/perInstruction).
// Also wires that section to the measurements and to the GPU the probe measures on.
#pragma once

class QAction;
class QMenu;
class QWidget;

namespace warpscope::app {

class KernelMeasurementStore;
class ProbeClient;

/// The settings key of the option.
inline constexpr const char* kPerInstructionSetting = "probe/perInstruction";

/// Adds the checkable action (object name "perInstructionAction") to `menu`, checked as the
/// settings say when `useSettings`; toggling it applies it to the runners under `window` and,
/// with `useSettings`, remembers it.
QAction* addPerInstructionOption(QMenu* menu, QWidget* window, bool useSettings);

/// Sets KernelMeasureOptions::perInstruction of every KernelSweepRunner and NotesRunner under
/// `window` to the action's state, and gives the PerInstructionPanel under `window` the store
/// and the probe's GPU (followed as the probe's state changes). Call once they all exist.
void connectPerInstruction(QWidget* window, const KernelMeasurementStore* store,
                           const ProbeClient* probe);

} // namespace warpscope::app
