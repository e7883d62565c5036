// The main window's traced warps beyond the Trace dock (mainwindow_trace.cpp): the trace grid
// drawn over the Grid tab while a traced warp is the current pattern, and the session view
// settings that bring the traced instruction and warp back when a session is opened. Free
// functions over MainWindow's public parts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace warpscope::app {

class MainWindow;
class TraceGridView;

/// The trace grid over the Grid tab, or nullptr before a traced warp was first shown.
TraceGridView* traceGridViewOf(const MainWindow& window);
/// Trace record `record` of `instruction` became the current pattern: the trace grid covers the
/// Grid tab with that instruction's traced warps, the record's warp outlined.
void showTraceGrid(MainWindow& window, std::size_t instruction, std::uint64_t record);
/// Whether the current pattern is the traced warp the Trace dock shows.
bool showsTracedWarp(const MainWindow& window);
/// The traced warp shown (trace file, launch, PC, block and warp) as session view settings.
void addTraceSettings(const MainWindow& window, std::map<std::string, std::string>& settings);
/// Opens the session's trace at its instruction and warp, or says the trace has moved.
void applyTraceSettings(MainWindow& window, const std::map<std::string, std::string>& settings);

} // namespace warpscope::app
