#!/usr/bin/env python3
"""Checks the ldmatrix / stmatrix rule (docs/models.md, "ldmatrix and stmatrix") against a
measured table (make_ldmatrix_table.py). Usage: check_ldmatrix_rule.py TABLE.jsonl
Prints each row the rule misses and a count; exits 1 when any row is missed.

The rule, fitted to the designed set (tests/data/ldmatrix_designed_h200.jsonl): every matrix is
its own phase of 8 rows (lanes 8i..8i+7), never merged with another matrix. Within a matrix, a
16-byte row lies in bank group (address / 16) % 8 (four banks); rows on one address are served
together (broadcast); a phase takes as many wavefronts as its fullest bank group has distinct row
addresses. Bank conflicts are the wavefronts beyond one per matrix. smsp__inst_executed_op_ldsm
counts 1 per ldmatrix and 0 per stmatrix.
"""
import json
import sys


def predict(row):
    m = row["matrices"]
    waves = 0
    for i in range(m):
        groups = {}
        for a in row["addresses"][8 * i:8 * i + 8]:
            groups.setdefault((a // 16) % 8, set()).add(a)
        waves += max(len(s) for s in groups.values())
    suffix = "st" if row["op"] == "stmatrix" else "ld"
    return {f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{suffix}.sum": waves,
            f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{suffix}.sum": waves - m,
            "smsp__inst_executed_op_ldsm.sum": 1 if suffix == "ld" else 0}


lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
missed = 0
for row in lines[1:]:
    for name, value in predict(row).items():
        if row["measured"].get(name) != value:
            missed += 1
            print(f"{row['name']}: {name} predicted {value}, measured {row['measured'].get(name)}")
print(f"{len(lines) - 1 - missed} of {len(lines) - 1} rows agree (a row can miss more than once)")
sys.exit(1 if missed else 0)
