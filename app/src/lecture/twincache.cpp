// The lecture window's one cache of twins (twincache.h).
#include "lecture/twincache.h"

#include <QWidget>

namespace warpscope::app {

TwinCache::TwinCache() = default;

TwinCache::~TwinCache() {
    // The twins' widgets belong to their windows: forget them before the windows go.
    m_twins.clear();
    m_hosts.clear();
}

TwinCache::Twin* TwinCache::find(const QString& name) {
    const auto found = m_twins.find(name);
    return found != m_twins.end() ? &found->second : nullptr;
}

TwinCache::Twin& TwinCache::make(const QString& name, const QString& sharing) {
    Twin twin;
    if (const Twin* shared = sharing.isEmpty() ? nullptr : find(sharing)) {
        twin.host = shared->host;
        twin.document = shared->document;
    } else {
        auto host = std::make_unique<QWidget>();
        twin.host = host.get();
        m_hosts[name] = std::move(host);
    }
    return m_twins[name] = twin;
}

void TwinCache::drop(const QString& name) {
    m_twins.erase(name);
    m_hosts.erase(name); // and every widget in it
}

} // namespace warpscope::app
