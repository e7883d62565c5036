// The registry's rows (experimentregistry.h): each experiment's view, readers and words. A row is
// made by bindExperiment<View, Traits>() from the view's class and core's traits
// (experiments::TransfersExperiment: its key and its measurement's reader), which give the row of
// core's table and both readers; what is left is the tab's words, in MainWindow's translation
// context, where they were written first.
#include "experiments/experimentregistry.h"

#include "experiments/l2persistenceview.h"
#include "experiments/streamsview.h"
#include "experiments/transfersview.h"

#include <QCoreApplication>

#include <array>
#include <cassert>
#include <string_view>
#include <type_traits>
#include <utility>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MainWindow", text);
}

/// The results type a view holds (TransferResults for TransfersView, ...).
template <class View>
using ResultsOf =
    typename std::decay_t<decltype(std::declval<const View&>().results())>::value_type;

/// A row's typed parts for `View`, whose results are those of the experiment `Traits` (core's
/// traits: experiments::TransfersExperiment): the row of core's table named by the traits' key,
/// and both readers, the probe's result object and a recorded file, through the traits' reader
/// (gpu/experimentresults.h). Everything else of the row is filled in by the caller.
template <class View, class Traits> AppExperiment bindExperiment() {
    using Results = ResultsOf<View>;
    static_assert(std::is_same_v<typename Results::Experiment, Traits>,
                  "the view's results must be the experiment's");
    AppExperiment row;
    row.row = &experiments::experiment(Traits::key);
    row.createView = [](QWidget* parent) -> ExperimentView* { return new View(parent); };
    row.showAnswer = [](ExperimentView* view, const QJsonObject& result, QString* error) {
        std::optional<Results> results = resultsFromAnswer<Results>(result, error);
        if (!results) {
            return false;
        }
        static_cast<View*>(view)->setResults(std::move(results));
        return true;
    };
    row.showRecorded = [](ExperimentView* view, const QByteArray& bytes, QString* error) {
        std::optional<Results> results = readRecordedResults<Results>(bytes, error);
        if (!results) {
            return false;
        }
        static_cast<View*>(view)->setResults(std::move(results));
        return true;
    };
    row.results = [](const ExperimentView* view) -> std::any {
        const std::optional<Results>& results = static_cast<const View*>(view)->results();
        return results ? std::any(*results) : std::any();
    };
    row.setResults = [](ExperimentView* view, const std::any& results) {
        const auto* typed = std::any_cast<Results>(&results);
        static_cast<View*>(view)->setResults(typed != nullptr ? std::optional<Results>(*typed)
                                                              : std::nullopt);
    };
    row.answer = [](const ExperimentView* view) -> const QJsonObject* {
        const std::optional<Results>& results = static_cast<const View*>(view)->results();
        return results ? &results->answer : nullptr;
    };
    return row;
}

// Session view setting: the stream count the Streams tab draws.
constexpr const char* kStreamsCountKey = "streams.count";

AppExperiment transfers() {
    AppExperiment row = bindExperiment<TransfersView, experiments::TransfersExperiment>();
    row.texts = [] {
        ExperimentTexts texts;
        texts.tabTitle = tr("Transfers");
        texts.resultsOptionHelp = QCoreApplication::translate(
            "warpscope", "Show recorded host and device transfer results (a measure_transfers "
                         "answer, e.g. tests/data/transfers_h100.json) in the Transfers tab.");
        texts.running = tr("Measuring host and device transfers on the GPU…");
        texts.cancelled = tr("Transfer measurement cancelled.");
        texts.unreadableAnswer = tr("The probe's transfer results cannot be read: %1");
        texts.measured = tr("Host and device transfers measured.");
        texts.failed = tr("Transfers: %1");
        texts.modelOnly = tr("This machine: no GPU to measure on (%1); the chart "
                             "shows the notes' figures.");
        texts.pressMeasure = tr("This GPU: %1; press Measure transfers.");
        texts.unreadableSession = tr("The session's transfer results cannot be read (%1); they "
                                     "are left out.");
        return texts;
    };
    row.resultKeys = {"memcpyLoop", "machine"};
    row.figureLayoutSize = QSizeF(640, 400);
    row.measureTimeoutMs = 600000;
    row.noResults = "transfer";
    return row;
}

AppExperiment streams() {
    AppExperiment row = bindExperiment<StreamsView, experiments::StreamsExperiment>();
    row.addViewSettings = [](const ExperimentView* view,
                             std::map<std::string, std::string>& settings) {
        settings[kStreamsCountKey] =
            std::to_string(static_cast<const StreamsView*>(view)->streamCount());
    };
    row.applyViewSettings = [](ExperimentView* view,
                               const std::map<std::string, std::string>& settings) {
        if (const auto count = settings.find(kStreamsCountKey); count != settings.end()) {
            bool ok = false;
            const int value = QString::fromStdString(count->second).toInt(&ok);
            if (ok) {
                static_cast<StreamsView*>(view)->setStreamCount(value);
            }
        }
    };
    row.texts = [] {
        ExperimentTexts texts;
        texts.tabTitle = tr("Streams");
        texts.resultsOptionHelp = QCoreApplication::translate(
            "warpscope", "Show recorded streams-and-overlap results (a measure_streams answer, "
                         "e.g. tests/data/streams_h100.json) in the Streams tab.");
        texts.running = tr("Measuring streams and overlap on the GPU…");
        texts.cancelled = tr("Stream measurement cancelled.");
        texts.unreadableAnswer = tr("The probe's stream results cannot be read: %1");
        texts.measured = tr("Streams and overlap measured.");
        texts.failed = tr("Streams: %1");
        texts.modelOnly = tr("This machine: no GPU to measure on (%1); the timeline is "
                             "the model's.");
        texts.pressMeasure = tr("This GPU: %1; press Measure streams.");
        texts.unreadableSession = tr("The session's stream results cannot be read (%1); they "
                                     "are left out.");
        return texts;
    };
    row.resultKeys = {"asyncEngineCount", "stages"};
    row.figureLayoutSize = QSizeF(960, 640);
    row.measureTimeoutMs = 300000;
    row.noResults = "stream";
    return row;
}

AppExperiment l2Persistence() {
    AppExperiment row = bindExperiment<L2PersistenceView, experiments::L2PersistenceExperiment>();
    row.texts = [] {
        ExperimentTexts texts;
        texts.tabTitle = tr("L2 persistence");
        texts.resultsOptionHelp = QCoreApplication::translate(
            "warpscope", "Show recorded L2 persistence results (a measure_l2_persistence answer, "
                         "e.g. tests/data/l2_persistence_h100.json) in the L2 persistence tab.");
        texts.running = tr("Measuring the L2 persistence window on the GPU…");
        texts.cancelled = tr("L2 persistence measurement cancelled.");
        texts.unreadableAnswer = tr("The probe's L2 persistence results cannot be read: %1");
        texts.measured = tr("The L2 persistence window measured.");
        texts.failed = tr("L2 persistence: %1");
        texts.modelOnly = tr("This machine: no GPU to measure on (%1); the chart "
                             "shows the model and the notes' statement.");
        texts.pressMeasure = tr("This GPU: %1; press Measure L2 persistence.");
        texts.unreadableSession = tr("The session's L2 persistence results cannot be read (%1); "
                                     "they are left out.");
        return texts;
    };
    row.resultKeys = {"persistingL2MaxBytes", "setAsideBytes"};
    // 960 wide: the legend's eight entries in two columns; at 640 one column of eight rows left
    // the curves a strip.
    row.figureLayoutSize = QSizeF(960, 600);
    row.measureTimeoutMs = 600000;
    row.noResults = "L2 persistence";
    return row;
}

/// The rows, in core's table's order (checked by test_experiments).
const std::array<AppExperiment, 3>& rows() {
    static const std::array<AppExperiment, 3> table{transfers(), streams(), l2Persistence()};
    return table;
}

} // namespace

std::span<const AppExperiment> appExperiments() {
    return rows();
}

const AppExperiment& appExperiment(std::string_view key) {
    for (const AppExperiment& row : rows()) {
        if (row.tableKey() == key) {
            return row;
        }
    }
    assert(false && "not a key of core's experiments table");
    return rows().front();
}

const AppExperiment* findAppExperiment(QStringView key) {
    for (const AppExperiment& row : rows()) {
        if (key == row.key()) {
            return &row;
        }
    }
    return nullptr;
}

} // namespace warpscope::app
