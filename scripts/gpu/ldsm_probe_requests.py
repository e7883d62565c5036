#!/usr/bin/env python3
"""Writes the requests scripts/gpu/ldsm_probe_check.sh sends to `warpscope-probe serve`.

requests.jsonl: hello, device_info, one sweep of every ldmatrix/stmatrix pattern of the tables
recorded with ncu (tests/data/ldmatrix_designed_h200.jsonl, ldmatrix_validation_h200.jsonl, in
file order), two single measures, the refusals (matrices 3, an unaligned row address, a row
outside shared memory) and shutdown. requests_small.jsonl: every 30th pattern, for memcheck.

Usage: scripts/gpu/ldsm_probe_requests.py OUT_DIR
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLES = ["tests/data/ldmatrix_designed_h200.jsonl", "tests/data/ldmatrix_validation_h200.jsonl"]


def rows():
    for table in TABLES:
        for line in (ROOT / table).read_text().splitlines():
            row = json.loads(line)
            if "format" not in row:
                yield row


def pattern(row):
    return {k: row[k] for k in ["space", "op", "matrices", "transpose", "width", "addresses"]}


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    table = list(rows())
    x4 = {"space": "shared", "op": "ldmatrix", "matrices": 4, "transpose": False, "width": 16,
          "addresses": [i * 16 for i in range(32)]}
    stmatrix = dict(x4, op="stmatrix", transpose=True)
    requests = [
        {"id": "hello", "op": "hello"},
        {"id": "device", "op": "device_info"},
        {"id": "sweep", "op": "sweep", "patterns": [pattern(r) for r in table],
         "options": {"latency": False}},
        {"id": "measure-ldmatrix-x4", "op": "measure", "pattern": x4},
        {"id": "measure-stmatrix-x4-trans", "op": "measure", "pattern": stmatrix},
        {"id": "refuse-matrices-3", "op": "measure", "pattern": dict(x4, matrices=3)},
        {"id": "refuse-unaligned-row", "op": "measure",
         "pattern": dict(x4, addresses=[i * 16 + (8 if i == 5 else 0) for i in range(32)])},
        {"id": "refuse-outside-shared", "op": "measure",
         "pattern": dict(x4, addresses=[i * 16 + ((1 << 20) if i == 3 else 0) for i in range(32)])},
        {"id": "bye", "op": "shutdown"},
    ]
    small = [{"id": "sweep-small", "op": "sweep", "patterns": [pattern(r) for r in table[::30]],
              "options": {"latency": False}},
             {"id": "bye", "op": "shutdown"}]
    (out / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in requests))
    (out / "requests_small.jsonl").write_text("".join(json.dumps(r) + "\n" for r in small))
    print(len(table), "patterns")


if __name__ == "__main__":
    main()
