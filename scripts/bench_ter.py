#!/usr/bin/env python3
"""Whole-process sentence-level TER: mteval vs sacrebleu 2.6.0 on the same rows.

Takes the shared WMT rows (all 5 pairs x 3 systems, 7,500 rows) repeated to
--rows rows, writes them as line-aligned text files and as Parquet, then times
(process start included):
  * sacrebleu: a fresh Python process computing TER().sentence_score per line;
  * mteval text mode: `mteval score --hyp H --ref R --sentence`;
  * mteval table mode: `mteval score rows.parquet -m ter -o scored.parquet`.
Checks that every sentence score is identical (within 1e-9) and prints the ratios.

Usage: python3 scripts/bench_ter.py [--rows 10000] [--mteval target/release/mteval]
"""
import os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_args, load_wmt_rows, print_speed_table, repeat_rows, sentence_bench  # noqa: E402

LABELS = ["sacrebleu 2.6.0 TER sentence (python)", "mteval score --hyp/--ref --sentence",
          "mteval score rows.parquet -o scored.parquet"]


def main():
    args = bench_args(10000)
    rows = repeat_rows(load_wmt_rows(), args.rows)
    # Newlines inside a segment would break line alignment; there are none in the sample.
    assert not any("\n" in r["hyp"] or "\n" in r["ref"] for r in rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-")
    diff, times = sentence_bench(args, tmp, rows, "sacrebleu.txt", "from sacrebleu.metrics import TER\nter = TER()",
                                 "ter.sentence_score(h, [r]).score", [], "ter")
    print(f"rows: {len(rows)}  (shared WMT rows repeated; max |mteval - sacrebleu| over all sentence scores = {diff:.3g})")
    print_speed_table(len(rows), 42, "vs sacrebleu", 13, LABELS, times)
    sys.exit(0 if diff <= 1e-9 else 1)


if __name__ == "__main__":
    main()
