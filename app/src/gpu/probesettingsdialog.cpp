// ProbeSettingsDialog: a form over ProbeSettings, kept in QSettings under "probe/".
#include "gpu/probesettingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace warpscope::app {

ProbeSettings ProbeSettings::load() {
    QSettings settings;
    ProbeSettings s;
    s.command = settings.value(QStringLiteral("probe/command")).toString();
    s.argumentList = settings.value(QStringLiteral("probe/argumentList")).toStringList();
    s.options.counters = settings.value(QStringLiteral("probe/counters"), true).toBool();
    s.options.latency = settings.value(QStringLiteral("probe/latency"), true).toBool();
    s.options.grid = settings.value(QStringLiteral("probe/grid"), false).toBool();
    s.options.repetitions =
        std::clamp(settings.value(QStringLiteral("probe/repetitions"), 21).toInt(), 1, 1000);
    s.timeoutSeconds =
        std::clamp(settings.value(QStringLiteral("probe/timeoutSeconds"), 60).toInt(), 5, 3600);
    s.device = rememberedDevice(s.commandKey());
    return s;
}

void ProbeSettings::save() const {
    QSettings settings;
    settings.setValue(QStringLiteral("probe/command"), command);
    settings.setValue(QStringLiteral("probe/argumentList"), argumentList);
    settings.setValue(QStringLiteral("probe/counters"), options.counters);
    settings.setValue(QStringLiteral("probe/latency"), options.latency);
    settings.setValue(QStringLiteral("probe/grid"), options.grid);
    settings.setValue(QStringLiteral("probe/repetitions"), options.repetitions);
    settings.setValue(QStringLiteral("probe/timeoutSeconds"), timeoutSeconds);
    rememberDevice(commandKey(), device);
}

namespace {
QString deviceKey(const QString& commandKey) {
    // A command holds slashes and spaces; QSettings keys are kept plain.
    return QStringLiteral("probe/device/") +
           QString::fromLatin1(
               QCryptographicHash::hash(commandKey.toUtf8(), QCryptographicHash::Sha1).toHex());
}
} // namespace

int ProbeSettings::rememberedDevice(const QString& commandKey) {
    return std::clamp(QSettings().value(deviceKey(commandKey), 0).toInt(), 0, 1024);
}

void ProbeSettings::rememberDevice(const QString& commandKey, int device) {
    QSettings().setValue(deviceKey(commandKey), device);
}

ProbeCommand ProbeSettings::probeCommand() const {
    return argumentList.isEmpty()
               ? ProbeCommand::fromLine(command, ProbeClient::defaultProgram())
               : ProbeCommand::fromArguments(argumentList, ProbeClient::defaultProgram());
}

QString ProbeSettings::commandKey() const {
    const ProbeCommand c = probeCommand();
    return c.error.isEmpty() ? c.display() : command;
}

ProbeSettingsDialog::ProbeSettingsDialog(const ProbeSettings& settings, QWidget* parent)
    : QDialog(parent), m_form(new QComboBox(this)), m_command(new QLineEdit(this)),
      m_argumentList(new QPlainTextEdit(this)), m_commandCheck(new QLabel(this)),
      m_counters(new QCheckBox(this)), m_latency(new QCheckBox(this)), m_grid(new QCheckBox(this)),
      m_repetitions(new QSpinBox(this)), m_timeout(new QSpinBox(this)),
      m_device(new QSpinBox(this)), m_devices(new QLabel(this)) {
    setWindowTitle(tr("Probe Settings"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    const QString automatic = ProbeClient::defaultProgram();
    m_command->setPlaceholderText(automatic.isEmpty() ? tr("warpscope-probe (not found)")
                                                      : automatic);
    m_command->setText(settings.command);
    m_command->setClearButtonEnabled(true);
    m_form->addItem(tr("Command line (quoted as in a shell)"));
    m_form->addItem(tr("Argument list (one per line)"));
    form->addRow(tr("Probe command &given as:"), m_form);
    form->addRow(tr("Probe &command:"), m_command);
    m_argumentList->setPlaceholderText(tr("ssh\n-o\nBatchMode=yes\ngpu-host\nwarpscope-probe"));
    m_argumentList->setPlainText(settings.argumentList.join(QLatin1Char('\n')));
    m_argumentList->setMaximumHeight(120);
    form->addRow(tr("&Arguments:"), m_argumentList);
    m_commandCheck->setWordWrap(true);
    m_commandCheck->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(QString(), m_commandCheck);
    const auto showForm = [this, form](int index) {
        form->setRowVisible(m_command, index == 0);
        form->setRowVisible(m_argumentList, index == 1);
        updateCommandCheck();
    };
    connect(m_form, &QComboBox::currentIndexChanged, this, showForm);
    m_form->setCurrentIndex(settings.argumentList.isEmpty() ? 0 : 1);
    showForm(m_form->currentIndex());
    connect(m_command, &QLineEdit::textChanged, this, &ProbeSettingsDialog::updateCommandCheck);
    connect(m_argumentList, &QPlainTextEdit::textChanged, this,
            &ProbeSettingsDialog::updateCommandCheck);
    auto* hint = new QLabel(
        tr("Empty: the warpscope-probe next to warpscope, else the one on the PATH. For a GPU on "
           "another machine: <tt>ssh -o BatchMode=yes gpu-host warpscope-probe</tt> (a key login: "
           "warpscope cannot type a password; the probe speaks JSON lines on stdin and stdout, "
           "nothing needs a shared file system). Quotes and backslashes work as in a shell; "
           "nothing is expanded."),
        this);
    hint->setWordWrap(true);
    form->addRow(QString(), hint);
    m_counters->setText(tr("Hardware counters (CUPTI)"));
    m_counters->setChecked(settings.options.counters);
    m_latency->setText(tr("Latency of one warp, cold and warm"));
    m_latency->setChecked(settings.options.latency);
    m_grid->setText(tr("Grid run: the expression over its whole grid (bandwidth)"));
    m_grid->setChecked(settings.options.grid);
    form->addRow(tr("Run measures:"), m_counters);
    form->addRow(QString(), m_latency);
    form->addRow(QString(), m_grid);
    m_repetitions->setRange(1, 1000);
    m_repetitions->setValue(settings.options.repetitions);
    form->addRow(tr("Timed &repetitions:"), m_repetitions);
    m_timeout->setRange(5, 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(settings.timeoutSeconds);
    m_timeout->setToolTip(tr("A probe silent this long while it has work is stopped and started "
                             "again"));
    form->addRow(tr("Restart a silent probe after:"), m_timeout);
    m_device->setRange(0, 1024);
    m_device->setValue(settings.device);
    m_device->setPrefix(tr("GPU "));
    m_device->setToolTip(tr("Which GPU of the probe's machine to measure on (device_info's index, "
                            "as nvidia-smi numbers them unless CUDA_VISIBLE_DEVICES reorders); "
                            "remembered for this probe command"));
    form->addRow(tr("Measure on &device:"), m_device);
    m_devices->setWordWrap(true);
    m_devices->setTextFormat(Qt::PlainText); // the GPU names the probe reports
    form->addRow(QString(), m_devices);
    setKnownDevices({});
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void ProbeSettingsDialog::updateCommandCheck() {
    const ProbeCommand command = settings().probeCommand();
    m_commandCheck->setText(!command.error.isEmpty() ? command.error
                            : command.program.isEmpty()
                                ? tr("No probe: warpscope-probe was not found")
                                : tr("Runs: %1").arg(command.display().toHtmlEscaped()));
}

ProbeSettings ProbeSettingsDialog::settings() const {
    ProbeSettings s;
    s.command = m_command->text().trimmed();
    if (m_form->currentIndex() == 1) {
        for (const QString& line : m_argumentList->toPlainText().split(QLatin1Char('\n'))) {
            if (!line.isEmpty()) {
                s.argumentList.append(line);
            }
        }
    }
    s.options.counters = m_counters->isChecked();
    s.options.latency = m_latency->isChecked();
    s.options.grid = m_grid->isChecked();
    s.options.repetitions = m_repetitions->value();
    s.timeoutSeconds = m_timeout->value();
    s.device = m_device->value();
    return s;
}

void ProbeSettingsDialog::setKnownDevices(const std::vector<GpuInfo>& devices) {
    if (devices.empty()) {
        m_devices->setText(tr("The probe lists its GPUs once it runs (GPU ▸ Device)."));
        return;
    }
    QStringList lines;
    for (const GpuInfo& d : devices) {
        lines << tr("GPU %1: %2, cc %3%4")
                     .arg(d.index)
                     .arg(d.name, d.computeCapability,
                          d.busId.isEmpty() ? QString() : tr(", bus %1").arg(d.busId));
    }
    m_devices->setText(lines.join(QLatin1Char('\n')));
}

} // namespace warpscope::app
