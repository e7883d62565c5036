// warpscope-probe: runs warpscope's access patterns on the local GPU and measures them, for the
// app (JSON lines on stdin/stdout) and for a person (run, selfcheck, info). docs/protocol.md.
#include "probe_backend.h"
#include "probe_cli.h"

int main(int argc, char** argv) {
    return warpscope::probe::probeMain(argc, argv,
                                       [] { return warpscope::probe::makeCudaBackend(); });
}
