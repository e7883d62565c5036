#!/usr/bin/env python3
"""The per-instruction table of scripts/gpu/per_instruction.sh: the grid model's prediction per
access, Nsight Compute's source counters of the access's own SASS instruction, and the whole
kernel's hardware and SASS-patched counters, one JSON line per access.

Usage:
  per_instruction.py ids KERNELS_JSON [--shared | --global-only]
      the kernel presets with at least one global or shared access, one id a line (only those
      with shared accesses or async copies, or only the others)
  per_instruction.py study KERNELS_JSON DIR
      writes the excess study's kernels (kernel JSON, one file each) into DIR
  per_instruction.py finish FILE
      rewrites recorded rows in the current form (the instruction's own requests)
  per_instruction.py join CLI KERNELS RAWDIR [--study]
      joins RAWDIR/NAME.probe.json, NAME.source.csv and NAME.raw.csv with the model's prediction
      (`CLI predict-kernel`: --preset NAME for presets; with --study, RAWDIR/NAME.kernel.json);
      KERNELS is resources/kernels.json (presets) or RAWDIR (study)

How an access is mapped to its instruction: the probe generates one SASS memory instruction per
access, in program order, and says which (`run-kernel --source --json`: "memoryInstructions",
e.g. "LDG 4"). The source page lists the kernel's SASS by address; its memory instructions
(LDG, STG, LDS, STS, LDGSTS, LDL, STL, TEX, LDC of a user constant bank), without those predicated
on never-true (`@!PT`), are taken in address order. Where their opcode families and widths equal
the promised list in order, access i is the i-th ("order"). Where ptxas laid the guarded blocks
out in another order, each access takes the first unused instruction of its opcode and width
("opcode"). Anything else is reported as unmapped and the kernel's rows say so.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

MEMORY = re.compile(r"^(LDGSTS|LDG|STG|LDS|STS|LDL|STL|LDSM|STSM|TEX|TLD|LDC)(\.|$)")
NEVER = re.compile(r"@!PT\b")
USER_CONSTANT = re.compile(r"c\[0x3\]")

# Source-page columns (Nsight Compute's SourceCounters section, per SASS instruction).
EXECUTED = "Instructions Executed"
REQUESTS = "L1 Tag Requests Global"
SECTORS = "L2 Theoretical Sectors Global"
WAVEFRONTS = "L1 Wavefronts Shared"
EXCESSIVE = "L1 Wavefronts Shared Excessive"
IDEAL = "L1 Wavefronts Shared Ideal"


def kernel_of(preset):
    return preset.get("kernel", preset)


def has_global_or_shared(kernel):
    return any(a.get("space", "global") in ("global", "shared") for a in kernel["accesses"])


def width_of(opcode):
    for part in opcode.split(".")[1:]:
        if part in ("U8", "S8"):
            return 1
        if part in ("U16", "S16"):
            return 2
        if part == "64":
            return 8
        if part == "128":
            return 16
    return 4


def source_rows(path):
    """(address, sass text, columns) of every SASS line of a `--page source --csv` export."""
    text = open(path, errors="replace").read()
    start = text.find('"Address"')
    if start < 0:
        return []
    rows = []
    for row in csv.DictReader(io.StringIO(text[start:])):
        try:
            address = int(row["Address"], 16)
        except (KeyError, ValueError):
            continue
        rows.append((address, row.get("Source", "").strip(), row))
    return rows


def memory_instructions(rows):
    found = []
    for address, sass, row in rows:
        if NEVER.search(sass):
            continue
        body = re.sub(r"^@!?U?P\w+\s+", "", sass)
        opcode = body.split()[0] if body.split() else ""
        match = MEMORY.match(opcode)
        if not match:
            continue
        family = match.group(1)
        if family == "LDC" and not USER_CONSTANT.search(sass):
            continue
        found.append({"family": family, "width": width_of(opcode), "address": address,
                      "sass": sass, "row": row})
    return found


def map_accesses(promised, found):
    """(mapping kind, list of found indices per access or None)."""
    wanted = []
    for entry in promised:
        family, width = entry.split()[:2]
        wanted.append((family, int(width)))
    got = [(f["family"], f["width"]) for f in found]
    if got == wanted:
        return "order", list(range(len(wanted)))
    used = set()
    chosen = []
    for want in wanted:
        pick = next((i for i, g in enumerate(got) if g == want and i not in used), None)
        if pick is not None:
            used.add(pick)
        chosen.append(pick)
    return "opcode", chosen


def raw_metrics(path):
    """The one kernel's metrics of a `--page raw --csv` export: name -> number."""
    text = open(path, errors="replace").read()
    start = text.find('"ID"')
    if start < 0:
        return {}
    reader = csv.reader(io.StringIO(text[start:]))
    header = next(reader, [])
    values = {}
    for row in reader:
        if not row or not row[0].strip('"').isdigit():
            continue  # the units line
        for name, value in zip(header, row):
            try:
                values[name] = float(value.replace(",", ""))
            except ValueError:
                pass
        break
    return values


def number(row, column):
    value = (row.get(column) or "").replace(",", "").strip()
    try:
        return int(float(value))
    except ValueError:
        return None


def access_kind(access):
    """(kind, hardware metric names) of one access of the kernel description."""
    space = access.get("space", "global")
    op = access["op"]
    if op in ("ld",):
        op = "load"
    if op in ("st",):
        op = "store"
    if space == "global" and op == "copy_async":
        return "global", ["l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"]
    if space == "global" and op in ("load", "store"):
        suffix = "ld" if op == "load" else "st"
        return "global", ["l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum" % suffix,
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum" % suffix]
    if space == "shared" and op in ("load", "store"):
        suffix = "ld" if op == "load" else "st"
        return "shared", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % suffix,
                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % suffix]
    return None, []


def sass_patched(metric):
    """The SASS-patched sibling of a shared-memory hardware counter (ncu's smsp__sass_*)."""
    if "_mem_shared_" not in metric:
        return None
    return "smsp__sass_" + metric.replace("l1tex__", "l1tex_", 1)


def predict(cli, name, kernel_file):
    if kernel_file:
        text = json.dumps(json.load(open(kernel_file)))
        done = subprocess.run([cli, "predict-kernel"], input=text + "\n", capture_output=True,
                              text=True)
    else:
        done = subprocess.run([cli, "predict-kernel", "--preset", name], capture_output=True,
                              text=True)
    line = (done.stdout.splitlines() or ["{}"])[0]
    answer = json.loads(line)
    if "accesses" not in answer:
        raise RuntimeError("%s: predict-kernel: %s %s" % (name, line[:300], done.stderr[:300]))
    return answer


def join_one(cli, name, kernel, raw_dir, kernel_file):
    probe_path = os.path.join(raw_dir, name + ".probe.json")
    source_path = os.path.join(raw_dir, name + ".source.csv")
    raw_path = os.path.join(raw_dir, name + ".raw.csv")
    probe = json.loads(open(probe_path).readline())
    promised = probe["memoryInstructions"]
    found = memory_instructions(source_rows(source_path))
    mapping, chosen = map_accesses(promised, found)
    measured = raw_metrics(raw_path)
    base = min((f["address"] for f in found), default=0)
    rows_all = source_rows(source_path)
    if rows_all:
        base = min(address for address, _, _ in rows_all)
    prediction = predict(cli, name, kernel_file)
    accesses = kernel["accesses"]
    kinds = [access_kind(a) for a in accesses]
    lines = []
    for index, access in enumerate(accesses):
        kind, metrics = kinds[index]
        if kind is None:
            continue
        predicted_access = prediction["accesses"][index]
        sharing = [j for j, (k, m) in enumerate(kinds) if m == metrics]
        row = {"kernel": name, "access": index, "label": access.get("label", ""),
               "space": access.get("space", "global"), "op": access["op"],
               "width": access.get("width", 4), "cache": access.get("cache", "default"),
               "grid": probe.get("grid"), "block": probe.get("block"),
               "mapping": mapping, "sass": None, "pcOffset": None}
        pick = chosen[index] if index < len(chosen) else None
        instruction = found[pick] if pick is not None else None
        if instruction is None:
            row["mapping"] = "unmapped"
        else:
            row["sass"] = instruction["sass"]
            row["pcOffset"] = instruction["address"] - base
        if kind == "global":
            row["predicted"] = {"requests": predicted_access.get(
                                    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                    predicted_access.get(
                                        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")),
                                "sectors": predicted_access.get(
                                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                    predicted_access.get(
                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"))}
            if instruction is not None:
                r = instruction["row"]
                row["instruction"] = {"executed": number(r, EXECUTED),
                                      "l1TagRequests": number(r, REQUESTS),
                                      "sectors": number(r, SECTORS)}
            row["hardware"] = {"requests": measured.get(metrics[0]),
                               "sectors": measured.get(metrics[1])}
        else:
            row["predicted"] = {"wavefronts": predicted_access.get(metrics[0]),
                                "conflicts": predicted_access.get(metrics[1])}
            if instruction is not None:
                r = instruction["row"]
                wavefronts, ideal = number(r, WAVEFRONTS), number(r, IDEAL)
                row["instruction"] = {"executed": number(r, EXECUTED), "wavefronts": wavefronts,
                                      "ideal": ideal,
                                      "conflicts": number(r, EXCESSIVE)}
            row["hardware"] = {"wavefronts": measured.get(metrics[0]),
                               "conflicts": measured.get(metrics[1])}
            row["sassPatched"] = {"wavefronts": measured.get(sass_patched(metrics[0])),
                                  "conflicts": measured.get(sass_patched(metrics[1]))}
        row["hardwareMetrics"] = metrics
        row["hardwareShared"] = sharing  # the accesses one kernel-level counter adds up
        row["kernelContext"] = {k: measured.get(k) for k in (
            "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__ctas_launched.sum",
            "gpu__time_duration.sum", "launch__occupancy_limit_shared_mem",
            "launch__occupancy_limit_warps", "launch__waves_per_multiprocessor")
            if measured.get(k) is not None}
        lines.append(finish(row))
    return lines


def finish(row):
    """The instruction's own request count, and no fields without a value. The source page has
    no per-instruction l1tex__t_requests: its "L1 Tag Requests Global" counts the 128-byte tags
    an instruction looks up (2 for a warp's 4-byte loads over two half lines, 4 for 16-byte
    loads), not requests. A global memory instruction sends one request per warp execution
    (the hardware counters agree on every recorded kernel), so the instruction's requests are
    its "Instructions Executed" where it moved any sector, and 0 where every execution was
    predicated off (an @!P LDGSTS of a guard that is false)."""
    instruction = row.get("instruction")
    if row.get("space") == "global" and instruction:
        if "l1TagRequests" not in instruction and "requests" in instruction:
            instruction["l1TagRequests"] = instruction.pop("requests")
        moved = (instruction.get("sectors") or 0) > 0
        instruction["requests"] = instruction.get("executed") if moved else 0
    for key in ("grid", "block", "sass", "pcOffset"):
        if row.get(key) is None:
            row.pop(key, None)
    return row


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    command = argv[1]
    if command == "ids":
        only = argv[3] if len(argv) > 3 else None
        for preset in json.load(open(argv[2])):
            kernel = kernel_of(preset)
            shared = any(a.get("space") == "shared" or a["op"] == "copy_async"
                         for a in kernel["accesses"])
            if has_global_or_shared(kernel) and (only is None or
                                                 (only == "--shared") == shared):
                print(preset["id"])
        return 0
    if command == "study":
        import per_instruction_study
        return per_instruction_study.write(json.load(open(argv[2])), argv[3])
    if command == "finish":
        # Brings recorded rows to the current form (idempotent): per_instruction.py finish FILE
        for line in open(argv[2]):
            if line.strip():
                print(json.dumps(finish(json.loads(line)), sort_keys=True))
        return 0
    if command == "join":
        cli, kernels, raw_dir = argv[2], argv[3], argv[4]
        study = "--study" in argv[5:]
        if study:
            names = sorted(f[:-len(".kernel.json")] for f in os.listdir(raw_dir)
                           if f.endswith(".kernel.json"))
            items = [(n, json.load(open(os.path.join(raw_dir, n + ".kernel.json"))),
                      os.path.join(raw_dir, n + ".kernel.json")) for n in names]
        else:
            items = [(p["id"], kernel_of(p), None) for p in json.load(open(kernels))
                     if has_global_or_shared(kernel_of(p))]
        failures = 0
        for name, kernel, kernel_file in items:
            if not os.path.exists(os.path.join(raw_dir, name + ".source.csv")):
                print("%s: not measured" % name, file=sys.stderr)
                failures += 1
                continue
            try:
                for line in join_one(cli, name, kernel, raw_dir, kernel_file):
                    print(json.dumps(line, sort_keys=True))
            except (RuntimeError, ValueError, KeyError, IndexError) as error:
                print("%s: %s" % (name, error), file=sys.stderr)
                failures += 1
        return 1 if failures else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv))
