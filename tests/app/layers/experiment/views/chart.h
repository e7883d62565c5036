// A fixture for app.layers.catches-experiment-outside: a view below experiments/ that names one
// experiment's core header.
#pragma once

#include <warpscope/experiments/transfers.h>
