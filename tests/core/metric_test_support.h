// A metric's value by its name in a model's answer, for the per-warp model's tests.
#pragma once

#include "warpscope/model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace warpscope::metric_test {

/// The value of the metric called `name`; a test failure (and -1) when there is none.
inline double metric(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics) {
        if (m.name == name) {
            return m.value;
        }
    }
    ADD_FAILURE() << "no metric " << name;
    return -1.0;
}

} // namespace warpscope::metric_test
