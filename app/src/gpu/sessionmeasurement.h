// measureSessionEntry(): one session entry measured with a probe of its own, outside any window
// (`warpscope --export --measure`: the exported figure shows the measured overlay).
#pragma once

#include <warpscope/file_format.h>

#include <QString>

#include <optional>

namespace warpscope::app {

/// Measure the current entry of `session` with the probe (`command`, or the default one) and
/// record the answer in the entry. Returns why not, when no measurement came (within two minutes).
std::optional<QString> measureSessionEntry(Session& session, const std::optional<QString>& command);

} // namespace warpscope::app
