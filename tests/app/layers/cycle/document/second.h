// Fixture for app.layers.catches-cycle: the other half of an include cycle.
#pragma once

#include "document/first.h"
