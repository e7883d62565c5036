// The app's registry of probe experiments: per experiment (a row of core's table,
// warpscope/experiments/experiments.h) a factory for its view, its results' readers (the probe's
// answer, a recorded file, the session's copy) and its words. The main window's tabs, the command
// line, the figure export, the lecture window and the start-up read this registry instead of
// naming each experiment; adding one is adding a row to experimentregistry.cpp.
#pragma once

#include <warpscope/experiments/experiments.h>

#include <QByteArray>
#include <QJsonObject>
#include <QSizeF>
#include <QString>
#include <QStringView>

#include <any>
#include <array>
#include <map>
#include <span>
#include <string>
#include <string_view>

class QWidget;

namespace warpscope::app {

class ExperimentView;

/// One experiment tab's words, translated; %1 is filled in where a text names it.
struct ExperimentTexts {
    QString tabTitle;          // the tab ("Transfers")
    QString resultsOptionHelp; // --help's line for the recorded-results option (--transfers)
    QString running;           // status bar while measuring
    QString cancelled;         // status bar, after Cancel
    QString unreadableAnswer;  // message bar: the probe's answer cannot be read (%1: why)
    QString measured;          // status bar, after a measurement
    QString failed;            // message bar: the probe failed (%1: its message)
    QString modelOnly;         // GPU status with no GPU to measure on (%1: why)
    QString pressMeasure;      // GPU status with a GPU ready (%1: the GPU)
    QString unreadableSession; // message bar: the session's results cannot be read (%1: why)
};

/// An experiment as the app knows it. The results are typed per experiment (TransferResults,
/// StreamsResults, ...); here they pass as a std::any holding that type (empty: no results), so
/// the window, the lecture window and the export handle every experiment alike.
struct AppExperiment {
    const experiments::Experiment* row = nullptr;
    /// The view, a child of `parent` (null: none).
    ExperimentView* (*createView)(QWidget* parent) = nullptr;
    /// Shows the probe's result object in `view`; false with `error` set when it cannot be read.
    bool (*showAnswer)(ExperimentView* view, const QJsonObject& result, QString* error) = nullptr;
    /// Shows recorded results (a result object or a protocol answer line, as a file or the
    /// session holds them); false with `error` set when they cannot be read.
    bool (*showRecorded)(ExperimentView* view, const QByteArray& bytes, QString* error) = nullptr;
    /// The view's results (a std::any holding its Results; empty when it has none).
    std::any (*results)(const ExperimentView* view) = nullptr;
    /// Shows `results` (as results() gives them) in `view`.
    void (*setResults)(ExperimentView* view, const std::any& results) = nullptr;
    /// The answer the view's results were read from, for the session; null when none.
    const QJsonObject* (*answer)(const ExperimentView* view) = nullptr;
    /// The view's own choices in the session's view settings (the streams' count); may be null.
    void (*addViewSettings)(const ExperimentView* view,
                            std::map<std::string, std::string>& settings) = nullptr;
    void (*applyViewSettings)(ExperimentView* view,
                              const std::map<std::string, std::string>& settings) = nullptr;
    /// Keys of a recorded result's JSON object that only this experiment's results hold: File ▸
    /// Open Measurements… tells the experiments' files apart by them (null: unused).
    std::array<const char*, 2> resultKeys{};
    /// The tab's words.
    ExperimentTexts (*texts)() = nullptr;
    /// The smallest layout a figure draws the view at before scaling it down to its cell.
    QSizeF figureLayoutSize{640, 400};
    /// How long a headless `--export --measure` waits for the answer.
    int measureTimeoutMs = 600000;
    /// "no <noResults> results" when --measure gets none.
    const char* noResults = "";

    QString key() const { return QString::fromUtf8(row->key.data(), qsizetype(row->key.size())); }
    /// The recorded-results option's name, without its dashes ("transfers").
    QString resultsOption() const {
        return QString::fromUtf8(row->resultsOption.data(), qsizetype(row->resultsOption.size()));
    }
    /// The key in core's table ("transfers"), as core spells it.
    std::string_view tableKey() const { return row->key; }
};

/// Each experiment's results by its key (a std::any holding its Results, as
/// AppExperiment::results gives them; absent: none).
using ExperimentResultsByKey = std::map<std::string, std::any, std::less<>>;

/// Every experiment, in core's table's order.
std::span<const AppExperiment> appExperiments();
/// The registry's row of `key` ("transfers"); the key must be one of core's table (asserted).
const AppExperiment& appExperiment(std::string_view key);
/// The row whose key is `key` ("transfers"), or nullptr.
const AppExperiment* findAppExperiment(QStringView key);

} // namespace warpscope::app
