"""The excess study's kernels (issue 32; docs/models.md, "Shared wavefronts the hardware counts
beyond the instructions'"): what runs beside a shared access on the SM, varied one thing at a
time. Each kernel's name says what it varies:

  tiled-*, padded-*   the transpose-tiled preset (tile [32][32], then [32][33]): the whole grid
                      (64 x 64 blocks of 1024 threads, two blocks per SM), 132 blocks (one per
                      SM), 264 (two per SM), one block, the shared accesses alone (no global
                      traffic), and the global load as ld.global.cg
  warp-*              one warp per block: a conflict-free shared store and a 32-way conflicting
                      shared load, over 132 blocks (one warp per SM), 1056 (eight) and 4224
                      (thirty-two); alone, after a global load through L1, after an .cg load;
                      and with a second conflicting load right after the first or after a store
Written by scripts/gpu/per_instruction.py study; measured by scripts/gpu/per_instruction.sh.
"""
import copy
import json
import os

# A block of the tiled kernel is 32 x 32; the grid shapes keep every block inside the
# 2048 x 2048 matrices (the output is written transposed, so bid.x and bid.y both stay < 64).
TILED_GRIDS = {"full": [64, 64, 1], "g132": [33, 4, 1], "g264": [33, 8, 1], "g1": [1, 1, 1]}
WARP_GRIDS = {"g132": 132, "g1056": 1056, "g4224": 4224}


def _tiled(presets, pad):
    base = copy.deepcopy(next(p for p in presets if p["id"] == "transpose-tiled")["kernel"])
    for parameter in base["parameters"]:
        if parameter["name"] == "pad":
            parameter["value"] = pad
    return base


def _warp_kernel(name, blocks, accesses, with_global=None):
    kernel = {"name": name, "parameters": [], "buffers": [], "grid": [blocks, 1, 1],
              "block": [32, 1, 1], "accesses": []}
    if with_global:
        kernel["buffers"].append({"name": "in", "bytes": blocks * 32 * 4})
        kernel["accesses"].append({"label": "load in", "op": "load", "space": "global",
                                   "width": 4, "buffer": "in", "cache": with_global,
                                   "address": "gid * 4", "active": "1"})
    kernel["accesses"].extend(accesses)
    return kernel


STORE = {"label": "store s[lane]", "op": "store", "space": "shared", "width": 4,
         "address": "tid.x * 4", "active": "1"}
CONFLICT = {"label": "load s[32 * lane]", "op": "load", "space": "shared", "width": 4,
            "address": "tid.x * 128", "active": "1"}


def kernels(presets):
    out = {}
    for pad, tag in ((0, "tiled"), (1, "padded")):
        for grid_name, grid in TILED_GRIDS.items():
            k = _tiled(presets, pad)
            k["grid"] = grid
            out["%s-%s" % (tag, grid_name)] = k
        k = _tiled(presets, pad)
        k["accesses"] = k["accesses"][1:3]
        k["buffers"] = []
        out["%s-sharedonly" % tag] = k
        k = _tiled(presets, pad)
        k["accesses"][0]["cache"] = "cg"
        out["%s-cg" % tag] = k
    for grid_name, blocks in WARP_GRIDS.items():
        out["warp-%s" % grid_name] = _warp_kernel("warpConflict", blocks, [STORE, CONFLICT])
        out["warp-%s-global" % grid_name] = _warp_kernel("warpConflictGlobal", blocks,
                                                         [STORE, CONFLICT], "default")
        out["warp-%s-cg" % grid_name] = _warp_kernel("warpConflictCg", blocks,
                                                     [STORE, CONFLICT], "cg")
    out["warp-g4224-loadload"] = _warp_kernel("warpLoadLoad", 4224, [STORE, CONFLICT, CONFLICT])
    out["warp-g4224-loadstoreload"] = _warp_kernel("warpLoadStoreLoad", 4224,
                                                   [STORE, CONFLICT, STORE, CONFLICT])
    return out


def write(presets, directory):
    os.makedirs(directory, exist_ok=True)
    for name, kernel in kernels(presets).items():
        with open(os.path.join(directory, name + ".json"), "w") as f:
            json.dump(kernel, f)
    return 0
