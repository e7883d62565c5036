// A fixture for app.layers.catches-experiment-outside: in experiments/, an experiment's core
// header is allowed.
#pragma once

#include "views/chart.h"

#include <warpscope/experiments/experiments.h>
#include <warpscope/experiments/transfers.h>
