// The registry's rows (experimentregistry.h): each experiment's view, readers and words. A row is
// made by bindExperiment<View, Traits>() from the view's class and core's traits
// (experiments::TransfersExperiment: its key and its measurement's reader), which give the row of
// core's table and both readers; the tab's texts are made by one experimentTexts() from a few
// words per experiment (ExperimentWords), in MainWindow's translation context, where they were
// written first.
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

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString capitalised(const QString& text) {
    return text.left(1).toUpper() + text.mid(1);
}

/// What an experiment's row holds beside core's: the words its tab's texts are made of
/// (experimentTexts()) and the figure's and the measurement's sizes. Core's row gives the title,
/// the request op and the example file.
struct ExperimentWords {
    const char* results;    // what recorded results are of, in --help: "host and device transfer"
    const char* noun;       // "transfer": "Transfer measurement cancelled.", "no transfer results"
    const char* subject;    // what is measured: "host and device transfers"
    const char* measure;    // the Measure button's object: "transfers"
    const char* withoutGpu; // what the tab shows with no GPU: "the chart shows the notes' figures"
    std::array<const char*, 2> resultKeys; // AppExperiment::resultKeys
    int figureWidth;                       // AppExperiment::figureLayoutSize
    int figureHeight;
    int measureTimeoutMs;
};

/// The tab's texts, each sentence written once for every experiment.
ExperimentTexts experimentTexts(const experiments::Experiment& row, const ExperimentWords& words) {
    const QString noun = tr(words.noun);
    const QString subject = tr(words.subject);
    const QString later = QStringLiteral("%1"); // filled in where the text is shown
    ExperimentTexts texts;
    texts.tabTitle = tr(std::string(row.title).c_str());
    texts.resultsOptionHelp =
        QCoreApplication::translate(
            "warpscope", "Show recorded %1 results (a %2 answer, e.g. %3) in the %4 tab.")
            .arg(QCoreApplication::translate("warpscope", words.results), fromView(row.opName),
                 fromView(row.exampleFile), texts.tabTitle);
    texts.running = tr("Measuring %1 on the GPU…").arg(subject);
    texts.cancelled = tr("%1 measurement cancelled.").arg(capitalised(noun));
    texts.unreadableAnswer = tr("The probe's %1 results cannot be read: %2").arg(noun, later);
    texts.measured = tr("%1 measured.").arg(capitalised(subject));
    texts.failed = tr("%1: %2").arg(texts.tabTitle, later);
    texts.modelOnly =
        tr("This machine: no GPU to measure on (%1); %2.").arg(later, tr(words.withoutGpu));
    texts.pressMeasure = tr("This GPU: %1; press Measure %2.").arg(later, tr(words.measure));
    texts.unreadableSession =
        tr("The session's %1 results cannot be read (%2); they are left out.").arg(noun, later);
    return texts;
}

/// A row of words, in ExperimentWords' order (a call, so that each row stays a few lines).
constexpr ExperimentWords experimentWords(const char* results, const char* noun,
                                          const char* subject, const char* measure,
                                          const char* withoutGpu,
                                          std::array<const char*, 2> resultKeys, int figureWidth,
                                          int figureHeight, int measureTimeoutMs) {
    return ExperimentWords{results,    noun,        subject,      measure,         withoutGpu,
                           resultKeys, figureWidth, figureHeight, measureTimeoutMs};
}

// results, noun, subject, Measure button, without a GPU; result keys, figure size, timeout.
constexpr ExperimentWords kTransfersWords = experimentWords(
    "host and device transfer", "transfer", "host and device transfers", "transfers",
    "the chart shows the notes' figures", {"memcpyLoop", "machine"}, 640, 400, 600000);
constexpr ExperimentWords kStreamsWords = experimentWords(
    "streams-and-overlap", "stream", "streams and overlap", "streams",
    "the timeline is the model's", {"asyncEngineCount", "stages"}, 960, 640, 300000);
// 960 wide: the legend's eight entries in two columns; at 640 one column of eight rows left the
// curves a strip.
constexpr ExperimentWords kL2PersistenceWords =
    experimentWords("L2 persistence", "L2 persistence", "the L2 persistence window",
                    "L2 persistence", "the chart shows the model and the notes' statement",
                    {"persistingL2MaxBytes", "setAsideBytes"}, 960, 600, 600000);

/// A row's typed parts for `View`, whose results are those of the experiment `Traits` (core's
/// traits: experiments::TransfersExperiment): the row of core's table named by the traits' key,
/// and both readers, the probe's result object and a recorded file, through the traits' reader
/// (gpu/experimentresults.h); the texts and sizes from `words`. A view's own session settings (the
/// streams' count) are added by the caller.
template <class View, class Traits, const ExperimentWords& words> AppExperiment bindExperiment() {
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
    row.texts = [] { return experimentTexts(experiments::experiment(Traits::key), words); };
    row.resultKeys = words.resultKeys;
    row.figureLayoutSize = QSizeF(words.figureWidth, words.figureHeight);
    row.measureTimeoutMs = words.measureTimeoutMs;
    row.noResults = words.noun;
    return row;
}

// Session view setting: the stream count the Streams tab draws.
constexpr const char* kStreamsCountKey = "streams.count";

AppExperiment streams() {
    AppExperiment row =
        bindExperiment<StreamsView, experiments::StreamsExperiment, kStreamsWords>();
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
    return row;
}

/// The rows, in core's table's order (checked by test_experiments).
const std::array<AppExperiment, 3>& rows() {
    static const std::array<AppExperiment, 3> table{
        bindExperiment<TransfersView, experiments::TransfersExperiment, kTransfersWords>(),
        streams(),
        bindExperiment<L2PersistenceView, experiments::L2PersistenceExperiment,
                       kL2PersistenceWords>()};
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
