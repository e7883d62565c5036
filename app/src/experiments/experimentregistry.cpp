// The registry's rows (experimentregistry.h): each experiment's view, readers and words. A row is
// made by bindExperiment<View>() from the view's class and its results' two readers; what is left
// is the tab's words, in MainWindow's translation context, where they were written first.
#include "experiments/experimentregistry.h"

#include "experiments/l2persistenceview.h"
#include "experiments/streamsview.h"
#include "experiments/transfersview.h"

#include <QCoreApplication>

#include <array>
#include <cassert>
#include <utility>

namespace warpscope::app {

namespace {

using experiments::ExperimentId;

QString tr(const char* text) {
    return QCoreApplication::translate("MainWindow", text);
}

/// The results type a view holds (TransferResults for TransfersView, ...).
template <class View>
using ResultsOf =
    typename std::decay_t<decltype(std::declval<const View&>().results())>::value_type;

/// A row's typed parts for `View`, whose results `FromAnswer` reads from the probe's result
/// object and `FromBytes` from a recorded file. Everything else of the row is filled in by the
/// caller.
template <class View, auto FromAnswer, auto FromBytes>
AppExperiment bindExperiment(ExperimentId id) {
    using Results = ResultsOf<View>;
    AppExperiment row;
    row.row = &experiments::experiment(id);
    row.createView = [](QWidget* parent) -> ExperimentView* { return new View(parent); };
    row.showAnswer = [](ExperimentView* view, const QJsonObject& result, QString* error) {
        std::optional<Results> results = FromAnswer(result, error);
        if (!results) {
            return false;
        }
        static_cast<View*>(view)->setResults(std::move(results));
        return true;
    };
    row.showRecorded = [](ExperimentView* view, const QByteArray& bytes, QString* error) {
        std::optional<Results> results = FromBytes(bytes, error);
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
    AppExperiment row = bindExperiment<TransfersView, transferResultsFromJson, readTransferResults>(
        ExperimentId::Transfers);
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
    AppExperiment row = bindExperiment<StreamsView, streamsResultsFromJson, readStreamsResults>(
        ExperimentId::Streams);
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
    AppExperiment row =
        bindExperiment<L2PersistenceView, l2PersistenceResultsFromJson, readL2PersistenceResults>(
            ExperimentId::L2Persistence);
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

/// The rows, in core's table's order (ExperimentId's).
const std::array<AppExperiment, 3>& rows() {
    static const std::array<AppExperiment, 3> table{transfers(), streams(), l2Persistence()};
    return table;
}

} // namespace

std::span<const AppExperiment> appExperiments() {
    return rows();
}

const AppExperiment& appExperiment(ExperimentId id) {
    const auto index = static_cast<std::size_t>(id);
    assert(index < rows().size() && rows()[index].id() == id);
    return rows()[index];
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
