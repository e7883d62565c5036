// MainWindow's choice of GPU: GPU ▸ Device lists every device the probe's machine has (as
// device_info listed them) and measures on the one picked, remembered per probe command, so a
// lab server's second card or a workstation's compute card is one click away.
#include "shell/mainwindow.h"

#include "gpu/probeclient.h"
#include "gpu/probesettingsdialog.h"
#include "panels/messagebar.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace warpscope::app {

void MainWindow::createDeviceMenu(QMenu* gpu) {
    m_deviceMenu = gpu->addMenu(tr("&Device"));
    m_deviceMenu->setObjectName(QStringLiteral("deviceMenu"));
    connect(m_probe, &ProbeClient::devicesChanged, this, &MainWindow::updateDeviceMenu);
    updateDeviceMenu();
}

void MainWindow::updateDeviceMenu() {
    if (m_deviceMenu == nullptr) {
        return;
    }
    m_deviceMenu->clear();
    const std::vector<GpuInfo>& devices = m_probe->devices();
    if (devices.empty()) {
        QAction* none = m_deviceMenu->addAction(
            tr("GPU %1 (the probe lists its GPUs once it runs)").arg(m_probe->device()));
        none->setEnabled(false);
        return;
    }
    auto* group = new QActionGroup(m_deviceMenu);
    for (const GpuInfo& device : devices) {
        QString text = tr("GPU %1: %2 (cc %3, %4 GiB)")
                           .arg(device.index)
                           .arg(device.name, device.computeCapability)
                           .arg(static_cast<double>(device.memoryBytes) / (1 << 30), 0, 'f', 0);
        QAction* action = m_deviceMenu->addAction(text);
        action->setCheckable(true);
        action->setChecked(device.index == m_probe->device());
        action->setToolTip(
            tr("%1, bus %2%3")
                .arg(device.uuid, device.busId,
                     device.link.isEmpty() ? QString() : QStringLiteral(", ") + device.link));
        group->addAction(action);
        const int index = device.index;
        connect(action, &QAction::triggered, this, [this, index] { chooseGpuDevice(index); });
    }
}

void MainWindow::chooseGpuDevice(int index) {
    const bool changed = index != m_probe->device();
    m_probe->setDevice(index);
    if (m_options.useSettings) {
        ProbeSettings settings = ProbeSettings::load();
        if (m_options.probeCommand) {
            settings.command = *m_options.probeCommand;
            settings.argumentList.clear();
        }
        ProbeSettings::rememberDevice(settings.commandKey(), index);
    }
    if (changed) {
        m_messageBar->showMessage(
            MessageBar::Level::Info,
            tr("Measuring on GPU %1 from now on; earlier measurements keep the GPU they were "
               "measured on.")
                .arg(index));
    }
    updateDeviceMenu();
}

} // namespace warpscope::app
