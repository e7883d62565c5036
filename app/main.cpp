// warpscope: the desktop app's entry point. Everything else is in warpscope-app-lib.
#include "shell/applicationsetup.h"

int main(int argc, char** argv) {
    return warpscope::app::runWarpscope(argc, argv);
}
