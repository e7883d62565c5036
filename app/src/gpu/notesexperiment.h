// The notes' experiments: the course notes' tables of whole kernels (Table 4-11's block shapes,
// the readSegment offsets, the tiled transpose with and without padding, ...), each row a kernel
// preset at a parameter point with the number the notes publish for it (from the preset's
// references), and the comparison of those numbers with this GPU's measurement of the same kernel
// at the same size, with one sentence computed from the numbers.
#pragma once

#include "gpu/kernelmeasurement.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace warpscope::app {

/// What a row compares (the notes' quantity names, nvprof's where they are its).
enum class NotesQuantity { Bandwidth, LoadEfficiency, StoreEfficiency, Time };

struct NotesExperimentRow {
    std::string presetId;
    /// Index into the preset's references: the notes' number for this row; -1 when the notes
    /// publish none (the row is measured and drawn for this GPU only).
    int reference = -1;
    /// The parameter point (the reference's own when there is one).
    KernelPoint point;
    QString label; // "(8, 32)", "offset 11", "pad 1"
};

struct NotesExperiment {
    std::string id;    // "table-4-11"
    QString title;     // "Table 4-11: NaiveCol block shapes"
    QString source;    // "seed 002, Table 4-11"
    QString axisLabel; // what the rows are: "block (bx, by)"
    NotesQuantity quantity = NotesQuantity::Bandwidth;
    /// The first row is the baseline the others are compared with (offset 0, no padding).
    bool baselineFirst = false;
    /// Where the notes publish no number: the access whose single-warp prediction (sectors per
    /// request, or shared wavefronts, of warp 0 of block 0) the chart draws instead, so that the
    /// chart is never empty without a GPU; -1 for none.
    int modelAccess = -1;
    std::vector<NotesExperimentRow> rows;
};

/// The session's view settings that hold the notes tab: the experiment's id and the kernel
/// measurements (a JSON array of KernelMeasurement), read by the window and by figures.
inline constexpr const char* kNotesExperimentSetting = "notes.experiment";
inline constexpr const char* kKernelMeasurementsSetting = "notes.kernelMeasurements";

/// The built-in experiments, in display order, checked against the presets at first use: a row
/// whose preset or reference is missing is left out.
const std::vector<NotesExperiment>& notesExperiments();
const NotesExperiment* findNotesExperiment(const std::string& id);

QString quantityName(NotesQuantity quantity);
QString quantityUnit(NotesQuantity quantity);
/// Higher is better (bandwidth, efficiency), or lower (time).
bool higherIsBetter(NotesQuantity quantity);

/// One GPU's numbers for a row, when the rows were measured on more than one GPU.
struct NotesGpuValues {
    std::optional<double> measured; // in the experiment's quantity
    std::optional<double> bandwidthGBs;
    std::optional<double> kernelMs;
    std::optional<double> shareOfCopyPct;
};

struct NotesComparisonRow {
    QString label;
    std::optional<double> notes;    // the notes' number
    std::optional<double> measured; // this GPU's, in the same quantity
    /// The modern model's sectors per request (or wavefronts) of the experiment's modelAccess.
    std::optional<double> model;
    /// This GPU's effective bandwidth, time and share of the copy bandwidth, whatever the
    /// quantity compared.
    std::optional<double> bandwidthGBs;
    std::optional<double> kernelMs;
    std::optional<double> shareOfCopyPct;
    bool recorded = false;
};

struct NotesComparison {
    const NotesExperiment* experiment = nullptr;
    QString notesGpu;    // "not named in the notes", "Fermi M2070"
    QString measuredGpu; // the GPU the measurements come from; empty when none
    std::vector<NotesComparisonRow> rows;
    int measuredRows = 0;
    int notesRows = 0;
    /// When the rows were measured on more than one GPU (told apart by UUID, else name and
    /// index): each GPU's name, "GPU 0 · NVIDIA H200", ordered by device index then name; the
    /// rows' perGpu follow this order. Empty with one GPU or none (`measured` is then the one).
    QStringList gpuColumns;
    /// Per row, each GPU's numbers in gpuColumns' order: perGpu[row][column]; empty when
    /// gpuColumns is.
    std::vector<std::vector<NotesGpuValues>> perGpu;
    /// What `model` counts ("wavefronts of load tile[tid.x][tid.y], warp 0"); empty without.
    QString modelName;
    /// One sentence from the numbers; empty when there is nothing to compare.
    QString finding;
};

/// The experiment's rows with what the store holds for them.
NotesComparison compareWithNotes(const NotesExperiment& experiment,
                                 const KernelMeasurementStore& store);

/// The sentence compareWithNotes puts in `finding` (exposed for tests).
QString notesFinding(const NotesExperiment& experiment,
                     const std::vector<NotesComparisonRow>& rows);

/// The measure_kernel requests the experiment needs: per preset, its points in row order.
struct NotesRequest {
    std::string presetId;
    std::vector<KernelPoint> points;
};
std::vector<NotesRequest> notesRequests(const NotesExperiment& experiment);

} // namespace warpscope::app
