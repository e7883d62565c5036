// Fixture for app.layers.catches-cycle: one half of an include cycle.
#pragma once

#include "document/second.h"
