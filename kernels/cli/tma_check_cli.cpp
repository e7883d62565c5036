// `warpscope-probe tma-check` (tma_check_cli.h).
#include "tma_check_cli.h"

#include "tma_check.h"
#include "warpscope/command_line_text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <iostream>

namespace warpscope::probe {

const char* const kTmaCheckUsage =
    R"(tma-check  Issues one TMA tile load (cp.async.bulk.tensor.2d) on the GPU into a shared-memory
           window that starts at a multiple of 1024 bytes, dumps the window and compares which
           box row and byte each 16-byte chunk holds with warpscope's layout model (the same as
           `warpscope-cli tma-layout`). Prints one JSON object; exit 1 when they differ.
  --swizzle none|32B|64B|128B    (default 128B)
  --box INNERxROWS               box in elements (default 64x16)
  --element-bytes 1|2|4|8        (default 2)
  --smem-offset N                destination offset, a multiple of 128 (default 0)
)";

namespace {

int fail(const std::string& message) {
    writeUsageError(std::cerr, "warpscope-probe", "tma-check: " + message);
    return kExitBadInput;
}

bool parseInt(const std::string& text, long long& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
}

} // namespace

int printModelChecks(const std::vector<ModelCheck>& checks) {
    int counts[3] = {0, 0, 0}; // agree, differ, skipped: ModelCheck::Outcome's order
    for (const ModelCheck& check : checks) {
        ++counts[static_cast<int>(check.outcome)];
        std::cout << toString(check.outcome) << " " << check.name
                  << (check.detail.empty() ? "" : ": " + check.detail) << "\n";
    }
    std::cout << "model checks: " << counts[0] << " agree, " << counts[1] << " differ, "
              << counts[2] << " skipped\n";
    return counts[1];
}

int tmaCheckCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    TmaTileLoad load;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (i + 1 >= args.size()) {
            return fail("'" + arg + "' is not an option of tma-check, or lacks its value");
        }
        const std::string& value = args[++i];
        long long number = 0;
        if (arg == "--swizzle") {
            const auto swizzle = parseTmaSwizzle(value);
            if (!swizzle) {
                return fail("--swizzle: '" + value + "' is not a swizzle mode (none, 32B, 64B, " +
                            "128B)");
            }
            load.swizzle = *swizzle;
        } else if (arg == "--box") {
            const std::size_t x = value.find('x');
            long long inner = 0;
            long long rows = 0;
            if (x == std::string::npos || !parseInt(value.substr(0, x), inner) ||
                !parseInt(value.substr(x + 1), rows) || inner < 1 || rows < 1 || inner > 256 ||
                rows > 256) {
                return fail("--box: '" + value +
                            "' is not INNERxROWS with each from 1 to 256 (e.g. 64x16)");
            }
            load.boxInnerElements = static_cast<int>(inner);
            load.boxRows = static_cast<int>(rows);
        } else if (arg == "--element-bytes") {
            if (!parseInt(value, number) || number < 1 || number > 8) {
                return fail("--element-bytes: '" + value + "' is not 1, 2, 4 or 8");
            }
            load.elementBytes = static_cast<int>(number);
        } else if (arg == "--smem-offset") {
            if (!parseInt(value, number) || number < 0 || number > (1 << 20)) {
                return fail("--smem-offset: '" + value + "' is not a byte offset");
            }
            load.smemOffset = number;
        } else {
            return fail("unknown option '" + arg + "'");
        }
    }
    // The model's checks first (field and rule named), before anything touches the GPU.
    auto layout = layTmaTile(load);
    if (!layout) {
        return fail(layout.error().describe());
    }
    auto backend = makeBackend();
    auto dumped = backend->dumpTmaTile(load);
    if (auto* error = std::get_if<ProbeError>(&dumped)) {
        std::cerr << "warpscope-probe tma-check: " << probeErrorCodeName(error->code) << ": "
                  << error->message << "\n";
        if (protocol::isNoGpu(error->code)) {
            return kExitNoGpu;
        }
        return error->fatal ? kExitFatal
               : error->code == ProbeErrorCode::BadRequest ||
                       error->code == ProbeErrorCode::PatternRefused
                   ? kExitBadInput
                   : kExitProbeError;
    }
    const TmaCheckResult result = compareTmaLayout(layout.value(), std::get<TmaDump>(dumped));
    std::cout << toJson(result).dump() << "\n";
    if (!result.agrees()) {
        std::cerr << "warpscope-probe tma-check: " << describeTmaLoad(load)
                  << ": the GPU's layout differs from the model's\n";
        return kExitMismatch;
    }
    return kExitOk;
}

} // namespace warpscope::probe
