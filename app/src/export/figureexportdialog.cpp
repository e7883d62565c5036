// FigureExportDialog: the choices, the preview and the file written.
#include "export/figureexportdialog.h"
#include "views/viewkind.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace warpscope::app {

namespace {

constexpr const char* kSettingsGroup = "figureExport";

struct ViewChoice {
    const char* name;
    const char* label;
};
constexpr ViewChoice kViewChoices[] = {
    {"warp", QT_TRANSLATE_NOOP("FigureExportDialog", "Warp view")},
    {"bank", QT_TRANSLATE_NOOP("FigureExportDialog", "Bank view")},
    {"block", QT_TRANSLATE_NOOP("FigureExportDialog", "Block view")},
    {"sweep", QT_TRANSLATE_NOOP("FigureExportDialog", "Sweep plot")},
    {"metrics", QT_TRANSLATE_NOOP("FigureExportDialog", "Metrics table")},
    {"grid", QT_TRANSLATE_NOOP("FigureExportDialog", "Grid view (every warp of the launch)")},
    {"notes", QT_TRANSLATE_NOOP("FigureExportDialog", "Notes vs this GPU (bar chart)")},
    {"tile", QT_TRANSLATE_NOOP("FigureExportDialog", "Tile view (shared-memory tile, TMA box)")},
    {"figure", QT_TRANSLATE_NOOP("FigureExportDialog", "Composed figure (views, title, caption)")},
};

} // namespace

FigureExportDialog::FigureExportDialog(const Session& session, const QString& currentView,
                                       bool useSettings, QWidget* parent,
                                       ExperimentResultsByKey experimentResults)
    : QDialog(parent), m_renderer(session), m_experimentResults(std::move(experimentResults)),
      m_useSettings(useSettings), m_view(new QComboBox), m_format(new QComboBox),
      m_size(new QComboBox), m_width(new QSpinBox), m_height(new QSpinBox), m_dpi(new QSpinBox),
      m_theme(new QComboBox), m_title(new QLineEdit), m_caption(new QLineEdit),
      m_pixelSize(new QLabel), m_preview(new QLabel) {
    setWindowTitle(tr("Export Figure"));
    for (const ViewChoice& choice : kViewChoices) {
        m_view->addItem(tr(choice.label), QString::fromLatin1(choice.name));
    }
    if (const AppExperiment* experiment = findAppExperiment(currentView)) {
        // Its tab's chart, before the composed figure (the pattern's views cannot show it).
        m_view->insertItem(m_view->findData(viewKindName(ViewKind::Figure)),
                           tr("%1 chart").arg(experiment->texts().tabTitle), currentView);
    }
    auto* figureViews = new QHBoxLayout;
    for (const QString& name : figureViewNames()) {
        auto* box = new QCheckBox(name);
        box->setObjectName(name);
        figureViews->addWidget(box);
        m_figureViews << box;
    }
    figureViews->addStretch();
    // The pattern's own diagram and the numbers, unless the settings remember other views.
    const QString diagram =
        m_renderer.isSharedMemory() ? viewKindName(ViewKind::Bank) : viewKindName(ViewKind::Warp);
    for (QCheckBox* box : m_figureViews) {
        box->setChecked(box->objectName() == diagram ||
                        box->objectName() == viewKindName(ViewKind::Metrics));
    }
    m_format->addItem(tr("SVG (vector)"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF (vector)"), QStringLiteral("pdf"));
    m_format->addItem(tr("PNG (image)"), QStringLiteral("png"));
    m_format->addItem(tr("TikZ for LaTeX (.tex: warp or bank diagram)"), QStringLiteral("tex"));
    m_size->addItem(tr("Slide 16:9 (13.33 × 7.5 in)"), QStringLiteral("slide-16x9"));
    m_size->addItem(tr("Slide 4:3 (10 × 7.5 in)"), QStringLiteral("slide-4x3"));
    m_size->addItem(tr("Paper column (3.5 × 2.6 in)"), QStringLiteral("column"));
    m_size->addItem(tr("Custom size in pixels at 96 DPI"), QString());
    for (QSpinBox* box : {m_width, m_height}) {
        box->setRange(200, 8192);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(1600);
    m_height->setValue(900);
    auto* custom = new QHBoxLayout;
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("×")));
    custom->addWidget(m_height);
    custom->addStretch();
    m_dpi->setRange(kMinFigureDpi, kMaxFigureDpi);
    m_dpi->setValue(kDefaultFigureDpi);
    m_dpi->setSuffix(tr(" DPI"));
    auto* dpiRow = new QHBoxLayout;
    dpiRow->addWidget(m_dpi);
    dpiRow->addWidget(m_pixelSize);
    dpiRow->addStretch();
    m_theme->addItem(tr("Print (white paper, black text)"), QStringLiteral("print"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark (for a dark projector background)"), QStringLiteral("dark"));
    m_title->setText(m_renderer.patternTitle());
    m_caption->setText(m_renderer.patternCaption());
    m_caption->setCursorPosition(0);
    m_title->setPlaceholderText(tr("No title"));
    m_caption->setPlaceholderText(tr("No caption"));
    m_preview->setMinimumSize(480, 270);
    m_preview->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // not the pixmap's size
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_preview->setObjectName(QStringLiteral("figurePreview"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Show:"), m_view);
    // Views, Title and Caption belong to a composed figure: their labels are disabled with them.
    auto* viewsLabel = new QLabel(tr("Views:"));
    auto* titleLabel = new QLabel(tr("&Title:"));
    titleLabel->setBuddy(m_title);
    auto* captionLabel = new QLabel(tr("&Caption:"));
    captionLabel->setBuddy(m_caption);
    m_figureOnly = {viewsLabel, titleLabel, captionLabel};
    form->addRow(viewsLabel, figureViews);
    form->addRow(titleLabel, m_title);
    form->addRow(captionLabel, m_caption);
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("Si&ze:"), m_size);
    form->addRow(QString(), custom);
    form->addRow(tr("Resolution:"), dpiRow);
    form->addRow(tr("T&heme:"), m_theme);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    layout->addWidget(buttons);

    readSettings();
    dropEmptyViews();
    if (const int index = m_view->findData(currentView); index >= 0 && !currentView.isEmpty()) {
        m_view->setCurrentIndex(index);
    }
    for (QComboBox* box : {m_view, m_format, m_size, m_theme}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            updateControls();
            updatePreview();
        });
    }
    for (QSpinBox* box : {m_width, m_height, m_dpi}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            updateControls();
            updatePreview();
        });
    }
    for (QCheckBox* box : m_figureViews) {
        connect(box, &QCheckBox::toggled, this, &FigureExportDialog::updatePreview);
    }
    for (QLineEdit* edit : {m_title, m_caption}) {
        connect(edit, &QLineEdit::textChanged, this, &FigureExportDialog::updatePreview);
    }
    updateControls();
    updatePreview();
}

FigureExportDialog::~FigureExportDialog() = default;

FigureSpec FigureExportDialog::spec() const {
    FigureSpec spec;
    const QString view = m_view->currentData().toString();
    if (view == viewKindName(ViewKind::Figure)) {
        spec.views.clear();
        for (QCheckBox* box : m_figureViews) {
            if (box->isChecked()) {
                spec.views << box->objectName();
            }
        }
        if (spec.views.isEmpty()) {
            spec.views << (m_renderer.isSharedMemory() ? viewKindName(ViewKind::Bank)
                                                       : viewKindName(ViewKind::Warp));
        }
        spec.title = m_title->text();
        spec.caption = m_caption->text();
    } else {
        spec.views = {view};
    }
    const QString size = m_size->currentData().toString();
    spec.size =
        figureSizeFromName(
            size.isEmpty() ? QStringLiteral("%1x%2").arg(m_width->value()).arg(m_height->value())
                           : size)
            .value_or(spec.size);
    spec.theme =
        figureThemeFromName(m_theme->currentData().toString()).value_or(FigureTheme::Print);
    spec.dpi = m_dpi->value();
    spec.experimentResults = m_experimentResults;
    return spec;
}

FigureFormat FigureExportDialog::format() const {
    return figureFormatFromName(m_format->currentData().toString()).value_or(FigureFormat::Svg);
}

void FigureExportDialog::updateControls() {
    const bool figure = m_view->currentData().toString() == viewKindName(ViewKind::Figure);
    for (QCheckBox* box : m_figureViews) {
        box->setEnabled(figure);
    }
    m_title->setEnabled(figure);
    m_caption->setEnabled(figure);
    for (QWidget* label : m_figureOnly) {
        label->setEnabled(figure);
    }
    const QString why = tr("Only a composed figure has a title, a caption and several views: "
                           "choose \"Composed figure\" under Show");
    for (QWidget* widget : {static_cast<QWidget*>(m_title), static_cast<QWidget*>(m_caption)}) {
        widget->setToolTip(figure ? QString() : why);
    }
    dropEmptyViews(); // keeps the bank tick disabled on a global pattern
    const bool custom = m_size->currentData().toString().isEmpty();
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    const bool png = format() == FigureFormat::Png;
    m_dpi->setEnabled(png);
    const FigureSpec current = spec();
    const QSize pixels = current.size.pixelSize(current.dpi);
    m_pixelSize->setText(png ? tr("%1 × %2 pixels").arg(pixels.width()).arg(pixels.height())
                             : tr("%1 × %2 in page")
                                   .arg(current.size.pageInches.width(), 0, 'f', 2)
                                   .arg(current.size.pageInches.height(), 0, 'f', 2));
}

void FigureExportDialog::updatePreview() {
    if (m_renderer.error()) {
        m_preview->setText(*m_renderer.error());
        return;
    }
    if (format() == FigureFormat::Tex) {
        m_preview->setPixmap({});
        m_preview->setText(tr("TikZ: the %1 diagram with named styles (ws lane, ws sector, ws "
                              "word, ws conflict, ...) to restyle in LaTeX.")
                               .arg(m_renderer.isSharedMemory() ? tr("bank") : tr("warp")));
        return;
    }
    FigureSpec preview = spec();
    // Drawn at the preview's own size (device pixels), so it is sharp.
    const QSizeF room = QSizeF(m_preview->size() - QSize(12, 12)) * devicePixelRatioF();
    const qreal dpi = std::min(room.width() / preview.size.pageInches.width(),
                               room.height() / preview.size.pageInches.height());
    preview.dpi = std::max(8, static_cast<int>(dpi));
    QPixmap pixmap = QPixmap::fromImage(m_renderer.renderImage(preview));
    pixmap.setDevicePixelRatio(devicePixelRatioF());
    m_preview->setPixmap(pixmap);
}

void FigureExportDialog::resizeEvent(QResizeEvent* event) {
    QDialog::resizeEvent(event);
    updatePreview();
}

void FigureExportDialog::dropEmptyViews() {
    const bool shared = m_renderer.isSharedMemory();
    bool anyTicked = false;
    for (QCheckBox* box : m_figureViews) {
        if (box->objectName() == viewKindName(ViewKind::Bank) && !shared) {
            box->setChecked(false);
            box->setEnabled(false);
            box->setToolTip(tr("Banks belong to shared memory; this pattern accesses global "
                               "memory"));
        }
        anyTicked = anyTicked || box->isChecked();
    }
    if (!anyTicked) {
        for (QCheckBox* box : m_figureViews) {
            box->setChecked(box->objectName() ==
                            (shared ? viewKindName(ViewKind::Bank) : viewKindName(ViewKind::Warp)));
        }
    }
}

void FigureExportDialog::readSettings() {
    if (!m_useSettings) {
        return;
    }
    QSettings settings;
    settings.beginGroup(QLatin1String(kSettingsGroup));
    auto select = [&](QComboBox* box, const char* key) {
        const int index = box->findData(settings.value(QLatin1String(key)).toString());
        if (index >= 0) {
            box->setCurrentIndex(index);
        }
    };
    select(m_format, "format");
    select(m_size, "size");
    select(m_theme, "theme");
    m_dpi->setValue(settings.value(QStringLiteral("dpi"), kDefaultFigureDpi).toInt());
    m_width->setValue(settings.value(QStringLiteral("width"), 1600).toInt());
    m_height->setValue(settings.value(QStringLiteral("height"), 900).toInt());
    if (settings.contains(QStringLiteral("figureViews"))) {
        const QStringList views = settings.value(QStringLiteral("figureViews")).toStringList();
        for (QCheckBox* box : m_figureViews) {
            box->setChecked(views.contains(box->objectName()));
        }
    }
}

void FigureExportDialog::writeSettings() const {
    if (!m_useSettings) {
        return;
    }
    QSettings settings;
    settings.beginGroup(QLatin1String(kSettingsGroup));
    settings.setValue(QStringLiteral("format"), m_format->currentData());
    settings.setValue(QStringLiteral("size"), m_size->currentData());
    settings.setValue(QStringLiteral("theme"), m_theme->currentData());
    settings.setValue(QStringLiteral("dpi"), m_dpi->value());
    settings.setValue(QStringLiteral("width"), m_width->value());
    settings.setValue(QStringLiteral("height"), m_height->value());
    QStringList views;
    for (QCheckBox* box : m_figureViews) {
        if (box->isChecked()) {
            views << box->objectName();
        }
    }
    settings.setValue(QStringLiteral("figureViews"), views);
}

QString FigureExportDialog::exportToFile(QString* error) {
    QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (m_useSettings) {
        folder = QSettings().value(QStringLiteral("figureExport/folder"), folder).toString();
    }
    const QString suffix = figureFormatSuffix(format());
    QString stem = m_renderer.patternTitle();
    stem = slideFileStem(0, stem).mid(3); // the title as a file name, without "01-"
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Figure"), QDir(folder).filePath(stem + QLatin1Char('.') + suffix),
        tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty()) {
        return {};
    }
    QString target = path;
    if (QFileInfo(target).suffix().toLower() != suffix) {
        target += QLatin1Char('.') + suffix;
    }
    FigureSpec figure = spec();
    if (auto problem = writeFigure(m_renderer, figure, target)) {
        *error = *problem;
        return {};
    }
    writeSettings();
    if (m_useSettings) {
        QSettings().setValue(QStringLiteral("figureExport/folder"),
                             QFileInfo(target).absolutePath());
    }
    return target;
}

} // namespace warpscope::app
