#!/usr/bin/env python3
"""CharacTER benchmark against cer 1.2.0, same rows, same machine.

Whole-process sentence CharacTER (process start included) on --rows rows (the
shared WMT rows repeated): cer's `calculate_cer(hyp.split(), ref.split())` in a
fresh Python process vs `mteval score --hyp/--ref -m characTER --sentence
--options compat:cer` and `mteval score rows.parquet -m characTER -o ...`;
every sentence score must agree (1e-9; compat:cer reproduces cer's arithmetic).

Usage: python3 scripts/bench_cer.py [--rows 30000]
Needs the oracle venv (cer, Levenshtein).
"""
import os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_args, load_wmt_rows, print_speed_table, repeat_rows, sentence_bench  # noqa: E402

LABELS = ["cer 1.2.0 calculate_cer (python)", "mteval score --hyp/--ref -m characTER --sentence",
          "mteval score rows.parquet -m characTER -o ..."]


def main():
    args = bench_args(30000)
    # cer raises on an empty reference; the shared rows have none.
    rows = repeat_rows([r for r in load_wmt_rows() if r["ref"].split()], args.rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-cer-")
    diff, times = sentence_bench(args, tmp, rows, "cer.txt", "from cer import calculate_cer", "calculate_cer(h.split(), r.split())",
                                 ["-m", "characTER", "--options", "compat:cer"], "characTER")
    print(f"sentence CharacTER, rows: {len(rows)} (shared WMT rows repeated; max |mteval - cer| = {diff:.3g})")
    print_speed_table(len(rows), 52, "vs cer", 9, LABELS, times)
    sys.exit(0 if diff <= 1e-9 else 1)


if __name__ == "__main__":
    main()
