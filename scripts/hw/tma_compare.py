#!/usr/bin/env python3
"""Compares TMA tile loads dumped on a GPU (scripts/hw/tma_dump.cu, JSON lines) with what
`warpscope-cli tma-layout` predicts for the same load.

    scripts/hw/tma_compare.py DUMPS.jsonl WARPSCOPE_CLI

A load the GPU completed must give the same chunks (the dump lists them from the first chunk
written; the CLI from the destination address, so the dump is padded with nulls in front); a load
the GPU or cuTensorMapEncodeTiled refused must be refused by the CLI (exit status 2). Prints one
line per difference and a summary; exits 1 when anything differs."""
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dumps, cli = sys.argv[1], sys.argv[2]
    matched = refused = differ = 0
    with open(dumps) as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    header = rows[0] if "header" in rows[0] else {}
    for row in rows:
        if "mode" not in row:
            continue
        base = row.get("smem_base", 0)
        args = [cli, "tma-layout", "--swizzle", row["mode"], "--box",
                f"{row['box'][0]}x{row['box'][1]}", "--element-bytes", str(row["element_bytes"]),
                "--smem-offset", str(base + row["smem_offset"])]
        run = subprocess.run(args, capture_output=True, text=True)
        what = f"{row['mode']} {row['element_bytes']}-byte {row['box'][0]}x{row['box'][1]} " \
               f"at {row['smem_offset']} from {tuple(row['coords'])}"
        if row["status"] != "ok":
            if run.returncode == 2:
                refused += 1
            else:
                differ += 1
                print(f"{what}: the GPU refused it ({row['status']}), the model did not")
            continue
        if run.returncode != 0:
            differ += 1
            print(f"{what}: the GPU loaded it, the model refused: {run.stderr.strip()}")
            continue
        measured = [None] * (row["first_chunk"] // 16) + \
            [None if c[0] < 0 else c for c in row["chunks"]]
        predicted = json.loads(run.stdout)["chunks"]
        if measured == predicted:
            matched += 1
        else:
            differ += 1
            first = next((i for i, (m, p) in enumerate(zip(measured, predicted)) if m != p),
                         min(len(measured), len(predicted)))
            print(f"{what}: chunk {first} differs (measured {measured[first:first + 4]}, "
                  f"model {predicted[first:first + 4]}; {len(measured)} vs {len(predicted)} chunks)")
    print(f"{header.get('gpu', 'GPU')} (driver {header.get('driver', '?')}, CUDA "
          f"{header.get('cuda', '?')}): {matched} loads equal the model, {refused} refused by "
          f"both, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
