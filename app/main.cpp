// warpscope: the desktop app's entry point. The product is warpscope-app-lib; the benchmark and
// screenshot modes come from warpscope-app-harness, linked here and nowhere in the product.
#include "harness/harnessmodes.h"
#include "shell/applicationsetup.h"

int main(int argc, char** argv) {
    return warpscope::app::runWarpscope(argc, argv, warpscope::app::harnessModes());
}
