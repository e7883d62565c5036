// Fixture for app.layers.catches-upward: the shell, above the views.
#pragma once
