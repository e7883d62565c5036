// sharedCapacityWarning(): the highest byte any lane touches, against the two limits.
#include "panels/sharedcapacity.h"

#include <QCoreApplication>
#include <QLocale>

namespace warpscope::app {

QString sharedCapacityWarning(const WarpAccess& access) {
    if (access.kind.space != MemorySpace::Shared) {
        return {};
    }
    std::int64_t end = 0; // one past the highest byte a lane touches
    int lane = -1;
    for (int i = 0; i < kWarpSize; ++i) {
        const auto& address = access.addresses[static_cast<std::size_t>(i)];
        if (address && *address + access.kind.widthBytes > end) {
            end = *address + access.kind.widthBytes;
            lane = i;
        }
    }
    if (end <= kDefaultBlockSharedBytes) {
        return {};
    }
    const QLocale locale;
    const QString reach =
        QCoreApplication::translate("PatternEditor", "Lane %1 reaches byte %2 of shared memory")
            .arg(lane)
            .arg(locale.toString(end - 1));
    if (end <= kHopperBlockSharedOptInBytes) {
        return QCoreApplication::translate(
                   "PatternEditor",
                   "%1: past the 48 KB a block gets by default. A kernel must ask for more "
                   "(dynamic shared memory with cudaFuncSetAttribute, up to 227 KB a block on "
                   "Hopper, whose SM has 228 KB); the banks are drawn as typed.")
            .arg(reach);
    }
    return QCoreApplication::translate(
               "PatternEditor",
               "%1: more than any block can have (48 KB by default, at most 227 KB when a kernel "
               "opts in on Hopper, whose SM has 228 KB of shared memory in all). A real kernel "
               "cannot make this access; the banks are drawn as typed.")
        .arg(reach);
}

} // namespace warpscope::app
