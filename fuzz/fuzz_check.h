// What the fuzz targets share: their one assertion.
#pragma once

#include <cstdlib>

/// Stops the run when `condition` fails; libFuzzer reports the input that got here.
inline void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}
