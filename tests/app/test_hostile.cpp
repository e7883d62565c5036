// Hostile input through the app (issue 30): a title with markup reaches the exported SVG only
// escaped (--export and --export-deck), labels show a session's title and caption as plain
// text, and a FIFO or a device given as a session is refused at once with a message.
#include "panels/messagebar.h"
#include "windowfixture.h"

#include <warpscope/file_format.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <sys/stat.h>

namespace warpscope::app::test {
namespace {

const QString kHostileTitle = QStringLiteral("x</title><script>alert(1)</script><title>y");

struct HeadlessRun {
    int code = -1;
    QString err;
};

HeadlessRun runHeadless(const QStringList& arguments) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) {
        environment.remove(QString::fromLatin1(name));
    }
    environment.insert(QStringLiteral("QT_FONT_DPI"), QStringLiteral("96"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(WARPSCOPE_APP_BINARY), arguments);
    HeadlessRun run;
    if (!process.waitForFinished(170000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("warpscope did not finish");
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

/// The SVG parses as XML, holds no <script> element, and its <title> is the hostile text.
void expectEscaped(const QString& path) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    const QByteArray bytes = file.readAll();
    EXPECT_FALSE(bytes.contains("<script")) << path.toStdString();
    QXmlStreamReader xml(bytes);
    QStringList titles;
    bool script = false;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            script = script || xml.name() == QLatin1String("script");
            if (xml.name() == QLatin1String("title")) {
                titles << xml.readElementText();
            }
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_FALSE(script);
    EXPECT_EQ(titles, QStringList{kHostileTitle});
}

TEST(HostileExport, ATitleWithMarkupIsEscapedInTheSvg) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString svg = temp.filePath(QStringLiteral("x.svg"));
    const HeadlessRun run =
        runHeadless({QStringLiteral("--export"), svg, QStringLiteral("--preset"),
                     QStringLiteral("stride-2"), QStringLiteral("--title"), kHostileTitle});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    expectEscaped(svg);
}

TEST(HostileExport, ADeckSlideTitleWithMarkupIsEscapedInTheSvg) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString deck = temp.filePath(QStringLiteral("deck.json"));
    {
        QFile file(deck);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        const QString title =
            QString(kHostileTitle).replace(QLatin1Char('"'), QStringLiteral("\\\""));
        file.write(QStringLiteral(R"({"format": "warpscope-deck", "version": 1, "title": "t",
 "slides": [{"preset": "stride-2", "views": ["warp"], "title": "%1"}]})")
                       .arg(title)
                       .toUtf8());
    }
    const HeadlessRun run = runHeadless(
        {QStringLiteral("--export-deck"), deck, QStringLiteral("--output-dir"),
         temp.filePath(QStringLiteral("o")), QStringLiteral("--format"), QStringLiteral("svg")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    const QStringList files = QDir(temp.filePath(QStringLiteral("o"))).entryList(QDir::Files);
    ASSERT_EQ(files.size(), 1);
    expectEscaped(temp.filePath(QStringLiteral("o/")) + files.front());
}

TEST(HostileExport, ADeckThatIsAFifoIsRefusedAtOnce) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString fifo = temp.filePath(QStringLiteral("deck.json"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer timer;
    timer.start();
    const HeadlessRun run =
        runHeadless({QStringLiteral("--export-deck"), fifo, QStringLiteral("--output-dir"),
                     temp.filePath(QStringLiteral("o"))});
    EXPECT_NE(run.code, 0);
    EXPECT_TRUE(run.err.contains(QStringLiteral("FIFO"))) << run.err.toStdString();
    EXPECT_LT(timer.elapsed(), 20000); // a blocked open never returns; the app's start is slow
}

class HostileWindow : public WindowTest {};

TEST_F(HostileWindow, ASessionTitleWithMarkupShowsLiterally) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    Session session;
    NamedPattern named = document().current();
    named.title = "<h1>Big</h1><img src=\"file:///etc/hostname\">";
    named.caption = "<a href=\"https://example.org\">link</a>";
    session.entries = {SessionEntry{named, {}}};
    const QString path = temp.filePath(QStringLiteral("s.warpscope"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(sessionToJsonText(session)));
    }
    ASSERT_TRUE(window->openSession(path));
    QApplication::processEvents();
    int shown = 0;
    for (const QLabel* label : window->findChildren<QLabel*>()) {
        if (label->text().contains(QStringLiteral("<h1>")) ||
            label->text().contains(QStringLiteral("<a href"))) {
            ++shown;
            EXPECT_EQ(label->textFormat(), Qt::PlainText)
                << label->objectName().toStdString() << ": " << label->text().toStdString();
        }
    }
    EXPECT_GE(shown, 2) << "the title and the caption are both shown in a label";
}

TEST_F(HostileWindow, ASessionThatIsAFifoOrADeviceIsRefusedAtOnce) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString fifo = temp.filePath(QStringLiteral("s.warpscope"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& path : {fifo, QStringLiteral("/dev/zero")}) {
        QElapsedTimer timer;
        timer.start();
        EXPECT_FALSE(window->openSession(path)) << path.toStdString();
        EXPECT_LT(timer.elapsed(), 2000) << path.toStdString();
        const auto* bar = window->findChild<MessageBar*>();
        ASSERT_NE(bar, nullptr);
        EXPECT_TRUE(bar->text().contains(QStringLiteral("not a regular file")))
            << bar->text().toStdString();
    }
}

} // namespace
} // namespace warpscope::app::test
