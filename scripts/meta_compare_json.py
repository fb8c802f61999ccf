#!/usr/bin/env python3
"""Compares `mteval meta --json` with scripts/meta_reference.py's output:
the metric order, ranks, p-values and draws equal; correlations equal to
1e-12 (numpy takes Pearson's dot products from BLAS, whose summation order
is the CPU kernel's: over 22,500 scores the last 6-7 bits differ; the
Kendall-based and accuracy values are bit-equal in the golden tests). Exit 1
on a difference.

    python3 scripts/meta_compare_json.py MTEVAL.json REFERENCE.json
"""
import json
import sys


def main():
    mine, ref = (json.load(open(p)) for p in sys.argv[1:3])
    bad = 0
    assert len(mine["tasks"]) == len(ref["tasks"]), "task counts differ"
    for t, (a, b) in enumerate(zip(mine["tasks"], ref["tasks"])):
        for x, y in zip(a["metrics"], b["metrics"]):
            if x["name"] != y["name"] or x["rank"] != y["rank"]:
                print(f"task {t}: {x} vs {y}")
                bad += 1
            elif (x["corr"] is None) != (y["corr"] is None) or (
                    x["corr"] is not None and abs(x["corr"] - y["corr"]) > 1e-12):
                print(f"task {t}: corr {x} vs {y}")
                bad += 1
        if a["sig"] != b["sig"]:
            print(f"task {t}: p-values differ:\n{a['sig']}\n{b['sig']}")
            bad += 1
        if a["draws"] != b["draws"]:
            print(f"task {t}: draws differ")
            bad += 1
    print(f"{len(mine['tasks'])} tasks compared, {bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
