#!/usr/bin/env python3
"""Writes tests/golden/comet_compare.json: comet-compare's statistics (unbabel-comet 2.2.7's own
compare.py, loaded by comet_reference.py) on seeded random score columns, with what it prints.

Each case: system names, scores (systems x segments, Python floats; comet-compare makes them float32),
the options (seed, num_splits, sample_ratio, alternative), the results at full precision (float32
values widened exactly) and comet-compare's printed text for them.

Usage (numpy 2.4.6, scipy 1.17.1, tabulate 0.10.0):
    pip download --no-deps unbabel-comet==2.2.7 -d /tmp/comet && unzip /tmp/comet/*.whl comet/cli/compare.py -d /tmp/comet
    python scripts/make_comet_golden.py /tmp/comet/comet/cli/compare.py [--out tests/golden/comet_compare.json]
"""
import argparse, json, os, sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comet_reference  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, systems, segments, seed, num_splits, sample_ratio, alternative, kind)
CASES = [
    ("two segments", 2, 2, 12, 300, 0.4, "two-sided", "comet"),
    ("seven segments, three systems", 3, 7, 12, 300, 0.4, "two-sided", "comet"),
    ("wmt-sized", 4, 1013, 12, 300, 0.4, "two-sided", "comet"),
    ("options", 5, 300, 1, 100, 0.25, "less", "comet"),
    ("greater", 2, 50, 7, 300, 0.4, "greater", "wide"),
    ("identical systems", 3, 40, 12, 300, 0.4, "two-sided", "identical"),
    ("near ties", 3, 500, 12, 300, 0.4, "two-sided", "close"),
    ("one segment per split", 2, 2, 3, 50, 0.1, "two-sided", "comet"),
]


def scores_for(rng, systems, segments, kind):
    if kind == "identical":
        one = rng.uniform(0.3, 0.95, segments)
        return [one.tolist()] * systems
    if kind == "wide":
        return [(rng.standard_normal(segments) * 3 + i).tolist() for i in range(systems)]
    base = rng.uniform(0.4, 0.9, segments)
    if kind == "close":
        return [(base + rng.normal(0, 0.002, segments)).tolist() for _ in range(systems)]
    return [(np.clip(base + rng.normal(0.01 * i, 0.05, segments), 0, 1)).tolist() for i in range(systems)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compare_py")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/golden/comet_compare.json"))
    args = ap.parse_args()
    cc = comet_reference.load(args.compare_py)
    rng = np.random.default_rng(20261128)
    cases = []
    for name, systems, segments, seed, splits, ratio, alt, kind in CASES:
        scores = scores_for(rng, systems, segments, kind)
        names = [f"sys{i}.{kind}.txt" for i in range(systems)]
        results, named = comet_reference.reference(cc, scores, names, seed, splits, ratio, alt)
        cases.append(
            {
                "name": name,
                "systems": names,
                "scores": scores,
                "options": {"seed": seed, "num_splits": splits, "sample_ratio": ratio, "alternative": alt},
                "results": comet_reference.as_json(results),
                "printed": comet_reference.printed(cc, results, named),
            }
        )
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"reference": "unbabel-comet 2.2.7 comet/cli/compare.py, scipy 1.17.1, numpy 2.4.6, tabulate 0.10.0",
                   "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
