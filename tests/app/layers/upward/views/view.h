// Fixture for app.layers.catches-upward: a view that includes the shell.
#pragma once

#include "shell/window.h"
