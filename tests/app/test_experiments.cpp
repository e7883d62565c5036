// The experiments as one unit in the app (app/src/experiments): the registry has a row for every
// row of core's table, the window one tab per row, and the command line, the start-up, File ▸ Open
// Measurements…, the export and sessions reach each experiment through them alike: `--view KEY`
// starts on its tab as `--view grid` does, `--KEY FILE` loads its results, `--export --view KEY`
// draws what `--export --preset KEY` draws, and a session keeps its results.
#include "experimentfixture.h"
#include "experiments/experimentregistry.h"
#include "experiments/experimenttab.h"
#include "export/figureexportdialog.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/experimentview.h"
#include "windowfixture.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/experiments/transfers.h>

#include <QComboBox>
#include <QJsonDocument>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <set>

namespace warpscope::app::test {
namespace {

TEST(ExperimentRegistry, OneRowPerRowOfCoresTableWithEveryPartFilledIn) {
    ASSERT_EQ(appExperiments().size(), experiments::experiments().size());
    std::set<QString> titles;
    for (const experiments::Experiment& row : experiments::experiments()) {
        const AppExperiment& experiment = appExperiment(row.key);
        EXPECT_EQ(experiment.row, &row);
        EXPECT_EQ(findAppExperiment(experiment.key()), &experiment);
        EXPECT_NE(experiment.createView, nullptr);
        EXPECT_NE(experiment.showAnswer, nullptr);
        EXPECT_NE(experiment.showRecorded, nullptr);
        EXPECT_NE(experiment.results, nullptr);
        EXPECT_NE(experiment.setResults, nullptr);
        EXPECT_NE(experiment.answer, nullptr);
        ASSERT_NE(experiment.texts, nullptr);
        const ExperimentTexts texts = experiment.texts();
        EXPECT_TRUE(titles.insert(texts.tabTitle).second) << qPrintable(texts.tabTitle);
        for (const QString& text :
             {texts.running, texts.cancelled, texts.measured, texts.resultsOptionHelp}) {
            EXPECT_FALSE(text.isEmpty()) << row.key;
        }
        for (const QString& text : {texts.unreadableAnswer, texts.failed, texts.modelOnly,
                                    texts.pressMeasure, texts.unreadableSession}) {
            EXPECT_TRUE(text.contains(QStringLiteral("%1"))) << qPrintable(text);
        }
        EXPECT_NE(experiment.resultKeys[0], nullptr) << row.key;
    }
    EXPECT_EQ(findAppExperiment(u"warp"), nullptr);
    EXPECT_EQ(findAppExperiment(u""), nullptr);
}

TEST(ExperimentRegistry, ReadersShowRecordedResultsAndRefuseOthersWithAReason) {
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        std::unique_ptr<ExperimentView> view(experiment.createView(nullptr));
        EXPECT_EQ(experiment.answer(view.get()), nullptr);
        EXPECT_FALSE(experiment.results(view.get()).has_value());
        QString error;
        ASSERT_TRUE(
            experiment.showRecorded(view.get(), readWholeFile(exampleFile(experiment)), &error))
            << qPrintable(error);
        ASSERT_NE(experiment.answer(view.get()), nullptr);
        // The results pass to another view of the same experiment whole (the lecture's slides).
        std::unique_ptr<ExperimentView> copy(experiment.createView(nullptr));
        experiment.setResults(copy.get(), experiment.results(view.get()));
        ASSERT_NE(experiment.answer(copy.get()), nullptr);
        EXPECT_EQ(*experiment.answer(copy.get()), *experiment.answer(view.get()));
        experiment.setResults(copy.get(), std::any());
        EXPECT_EQ(experiment.answer(copy.get()), nullptr);
        // The probe's result object reads as the file does.
        EXPECT_TRUE(experiment.showAnswer(copy.get(), *experiment.answer(view.get()), &error))
            << qPrintable(error);
        error.clear();
        EXPECT_FALSE(experiment.showRecorded(copy.get(), "[1, 2", &error));
        EXPECT_FALSE(error.isEmpty());
        EXPECT_NE(experiment.answer(copy.get()), nullptr) << "a refused file keeps the results";
    }
}

TEST(ExperimentCommandLine, EveryExperimentIsAViewAndTakesItsResultsOption) {
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        CommandLine options;
        const QString file = exampleFile(experiment);
        const auto error = CommandLine::parse(
            {QStringLiteral("warpscope"), QStringLiteral("--view"), experiment.key(),
             QStringLiteral("--") + experiment.resultsOption(), file},
            options);
        ASSERT_FALSE(error) << qPrintable(*error);
        EXPECT_EQ(options.view, experiment.key());
        EXPECT_EQ(options.experimentResults(experiment.key()), QStringList{file});
        for (const AppExperiment& other : appExperiments()) {
            if (&other != &experiment) {
                EXPECT_TRUE(options.experimentResults(other.key()).isEmpty());
            }
        }
    }
    CommandLine options;
    const auto error = CommandLine::parse(
        {QStringLiteral("warpscope"), QStringLiteral("--view"), QStringLiteral("transfer")},
        options);
    ASSERT_TRUE(error);
    EXPECT_TRUE(error->contains(QStringLiteral("l2-persistence"))) << qPrintable(*error);
}

TEST_F(WindowTest, ExperimentsOneTabEachFoundByKeyAndShownByItsPresetId) {
    ASSERT_EQ(window->experimentTabs().size(), appExperiments().size());
    for (const AppExperiment& experiment : appExperiments()) {
        ExperimentTab* tab = window->experimentTab(experiment.tableKey());
        ASSERT_NE(tab, nullptr);
        EXPECT_EQ(&tab->experiment(), &experiment);
        EXPECT_EQ(window->findExperimentTab(experiment.key()), tab);
        const int index = window->viewTabs()->indexOf(tab->view());
        ASSERT_GE(index, 0) << experiment.row->key;
        EXPECT_EQ(window->viewTabs()->tabText(index), experiment.texts().tabTitle);
        EXPECT_TRUE(window->loadPresetById(experiment.key()));
        EXPECT_EQ(window->viewTabs()->currentWidget(), tab->view());
    }
    EXPECT_EQ(window->findExperimentTab(QStringLiteral("grid")), nullptr);
}

// File > Export Figure on an experiment's tab: the dialog offers that tab's chart, chosen first,
// and draws it from the tab's results (the recorded GPU's name is in it); without them, the
// chart the view draws alone. Before, the dialog drew the warp view from an experiment's tab.
TEST_F(WindowTest, ExportFigureDialogOnAnExperimentTabDrawsItsResults) {
    const AppExperiment& transfers = appExperiment(experiments::TransfersExperiment::key);
    ASSERT_TRUE(window->experimentTab(transfers.tableKey())->loadResults(exampleFile(transfers)));
    ExperimentResultsByKey results;
    for (ExperimentTab* tab : window->experimentTabs()) {
        results[std::string(tab->experiment().tableKey())] = tab->results();
    }
    FigureExportDialog dialog(window->currentSession(), transfers.key(), false, nullptr, results);
    EXPECT_EQ(dialog.viewBox()->currentData().toString(), transfers.key());
    const FigureSpec spec = dialog.spec();
    EXPECT_EQ(spec.views, QStringList{transfers.key()});
    const FigureRenderer renderer(window->currentSession());
    QString error;
    const QByteArray drawn = renderer.render(spec, FigureFormat::Svg, &error);
    ASSERT_FALSE(drawn.isEmpty()) << qPrintable(error);
    EXPECT_TRUE(drawn.contains("NVIDIA H100 80GB HBM3"));
    FigureSpec without = spec;
    without.experimentResults.clear();
    const QByteArray alone = renderer.render(without, FigureFormat::Svg, &error);
    EXPECT_FALSE(alone.contains("NVIDIA H100 80GB HBM3"));
    EXPECT_TRUE(alone.contains("the course notes' figures"));
    // The pattern's dialog is unchanged: no experiment among its views.
    FigureExportDialog plain(window->currentSession(), QStringLiteral("warp"), false);
    EXPECT_EQ(plain.viewBox()->findData(transfers.key()), -1);
}

// `--export FILE --view KEY` draws the chart `--export FILE --preset KEY` draws, byte for byte;
// before the registry, --view named only the pattern's views and refused every experiment.
TEST(ExperimentExport, ViewKeyExportsWhatPresetKeyExports) {
    QTemporaryDir dir;
    for (const AppExperiment& experiment : appExperiments()) {
        SCOPED_TRACE(experiment.row->key);
        const QString byPreset = dir.filePath(experiment.key() + QStringLiteral("-preset.svg"));
        const QString byView = dir.filePath(experiment.key() + QStringLiteral("-view.svg"));
        const QString results = QStringLiteral("--") + experiment.resultsOption();
        runAppHeadless({QStringLiteral("--preset"), experiment.key(), results,
                        exampleFile(experiment), QStringLiteral("--export"), byPreset});
        runAppHeadless({QStringLiteral("--view"), experiment.key(), results,
                        exampleFile(experiment), QStringLiteral("--export"), byView});
        const QByteArray drawn = readWholeFile(byPreset);
        EXPECT_FALSE(drawn.isEmpty());
        EXPECT_EQ(readWholeFile(byView), drawn);
    }
    // A pattern beside an experiment's chart is refused, naming what to drop.
    const QByteArray error =
        runAppHeadless({QStringLiteral("--view"), QStringLiteral("transfers"),
                        QStringLiteral("--preset"), QStringLiteral("readsegment-offset-11"),
                        QStringLiteral("--export"), dir.filePath(QStringLiteral("mixed.svg"))},
                       2);
    EXPECT_TRUE(error.contains("drop --preset")) << error.toStdString();
}

} // namespace
} // namespace warpscope::app::test
