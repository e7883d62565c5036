// ProbeSettingsDialog (GPU ▸ Probe Settings…): which warpscope-probe to run (empty: the one next
// to warpscope or on the PATH; or a whole command such as "ssh gpu-host warpscope-probe" for a GPU
// on another machine), what Run measures, and how long a silent probe is given.
#pragma once

#include "gpu/probeclient.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace warpscope::app {

struct ProbeSettings {
    QString command; // empty: ProbeClient::defaultProgram()
    ProbeMeasureOptions options;
    int timeoutSeconds = 60;

    static ProbeSettings load();
    void save() const;
};

class ProbeSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProbeSettingsDialog(const ProbeSettings& settings, QWidget* parent = nullptr);
    ProbeSettings settings() const;

private:
    QLineEdit* m_command;
    QCheckBox* m_counters;
    QCheckBox* m_latency;
    QCheckBox* m_grid;
    QSpinBox* m_repetitions;
    QSpinBox* m_timeout;
};

} // namespace warpscope::app
