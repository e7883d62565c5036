// The words the views and the metrics panel use for the models' results, in one place so the
// window, the screenshots and the tests all say the same thing.
#pragma once

#include "document/evaluation.h"

#include <QString>

namespace warpscope::app {

/// "Global load, 4 B per lane, 32 of 32 lanes active"
QString describeAccess(const WarpAccess& access);
/// "Modern model (cc 7.0+): 1 request · 5 sectors in 2 lines · 160 B moved for 128 B · 80.0 %"
QString modernSummary(const Evaluation& evaluation);
/// "Textbook model (Fermi/Kepler), cached loads: 2 transactions · 256 B moved · 50.0 %"
QString textbookSummary(const Evaluation& evaluation);
/// "cached loads: 128-byte transactions", ...
QString textbookRuleText(TextbookRule rule);
/// 0.8 -> "80.0 %"
QString percentText(double fraction);
/// An error as a user reads it: core's describe() with the pattern's field names said in words
/// ("the address expression, lane 5: ..." rather than "addressExpression, lane 5: ...").
QString describeError(const Error& error);

} // namespace warpscope::app
