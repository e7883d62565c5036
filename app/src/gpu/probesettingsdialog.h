// ProbeSettingsDialog (GPU ▸ Probe Settings…): which warpscope-probe to run (empty: the one next
// to warpscope or on the PATH; or a whole command such as "ssh gpu-host warpscope-probe" for a GPU
// on another machine), what Run measures, and how long a silent probe is given.
#pragma once

#include "gpu/probeclient.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace warpscope::app {

struct ProbeSettings {
    QString command; // empty: ProbeClient::defaultProgram()
    /// The command as a list of arguments, the program first (nothing is split); when not empty
    /// it is used instead of `command`.
    QStringList argumentList;
    ProbeMeasureOptions options;
    int timeoutSeconds = 60;
    /// The device to measure on, remembered per probe command (commandKey()).
    int device = 0;

    static ProbeSettings load();
    void save() const;
    /// The command to start: the argument list when there is one, else the command line.
    ProbeCommand probeCommand() const;
    /// The command as settings and remembered choices are keyed by (the words, quoted).
    QString commandKey() const;
    /// The device remembered for a probe command (0 when none was chosen).
    static int rememberedDevice(const QString& commandKey);
    static void rememberDevice(const QString& commandKey, int device);
};

class ProbeSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProbeSettingsDialog(const ProbeSettings& settings, QWidget* parent = nullptr);
    ProbeSettings settings() const;
    /// The devices the running probe listed, shown beside the device field.
    void setKnownDevices(const std::vector<GpuInfo>& devices);
    QSpinBox* deviceBox() const { return m_device; }

    /// "Command line" (0) or "Argument list" (1).
    QComboBox* formBox() const { return m_form; }
    QLineEdit* commandEdit() const { return m_command; }
    QPlainTextEdit* argumentsEdit() const { return m_argumentList; }

private:
    void updateCommandCheck();

    QComboBox* m_form;
    QLineEdit* m_command;
    QPlainTextEdit* m_argumentList;
    QLabel* m_commandCheck;
    QCheckBox* m_counters;
    QCheckBox* m_latency;
    QCheckBox* m_grid;
    QSpinBox* m_repetitions;
    QSpinBox* m_timeout;
    QSpinBox* m_device;
    QLabel* m_devices;
};

} // namespace warpscope::app
