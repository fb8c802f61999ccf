#!/usr/bin/env python3
"""Golden values for mteval's meta-evaluation kernels (kernels/src/meta),
computed by mt-metrics-eval's own stats.py at commit 68a481a.

The reference is read from a fetched copy of google-research/mt-metrics-eval
(never vendored, and never the unrelated PyPI package of that name):

    git clone https://github.com/google-research/mt-metrics-eval /tmp/mtme-repo
    git -C /tmp/mtme-repo checkout 68a481a
    python3 -m venv /tmp/metavenv && /tmp/metavenv/bin/pip install numpy==2.4.6 scipy==1.17.1
    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_meta_golden.py > tests/golden/meta.json

Each case is a gold vector (with None, which mt-metrics-eval filters) and a
metric vector packed as num_sys rows of num_items scores, as its
Correlation class holds them, with the correlations of every averaging
('none', 'sys', 'item') and statistic. A NaN is written as null.
"""

import json
import math
import os
import random
import sys

sys.path.insert(0, os.environ.get("MTME_DIR", "/tmp/mtme-repo"))
from mt_metrics_eval import stats  # noqa: E402

SEED = 20261127


def num(x):
    x = float(x)
    return None if math.isnan(x) else x


def vector(rng, n, kind):
    """n scores: few distinct values (many ties), or continuous."""
    if kind == "ties":
        return [float(rng.randint(0, 4)) for _ in range(n)]
    if kind == "half":
        return [rng.randint(0, 20) / 2 for _ in range(n)]
    return [rng.uniform(-3, 3) for _ in range(n)]


def case(rng, num_sys, num_items, kinds, none_rate, constant_row):
    n = num_sys * num_items
    gold = vector(rng, n, kinds[0])
    metric = vector(rng, n, kinds[1])
    if constant_row:
        # One system whose metric scores are all equal (NaN correlations).
        metric[:num_items] = [1.5] * num_items
    gold = [None if rng.random() < none_rate else g for g in gold]
    corr = stats.Correlation(num_sys, gold, metric)
    out = {"num_sys": num_sys, "gold": gold, "metric": metric, "results": []}
    for avg in ("none", "sys", "item"):
        for zeros in (False, True):
            res = {"average_by": avg, "replace_nans_with_zeros": zeros}

            def av(fcn, **kw):
                c = stats.AverageCorrelation(fcn, num_sys, avg, True, zeros, True, **kw)(gold, metric)
                return [num(c[0]), int(c[2])]

            import scipy.stats

            res["pearson"] = av(scipy.stats.pearsonr)
            res["spearman"] = av(scipy.stats.spearmanr)
            for variant in ("b", "c", "23", "acc23"):
                res[f"kendall_{variant}"] = av(stats.KendallVariants, variant=variant)
            for eps in (0.5, 1.0):
                for variant in ("b", "23", "acc23"):
                    res[f"kendall_{variant}_eps{eps}"] = av(stats.KendallVariants, variant=variant, epsilon=eps)
            out["results"].append(res)
    return out


def main():
    rng = random.Random(SEED)
    cases = []
    shapes = [(2, 5), (3, 4), (4, 10), (5, 7), (15, 20)]
    kinds = [("ties", "ties"), ("half", "cont"), ("cont", "cont"), ("cont", "ties")]
    for i, (s, m) in enumerate(shapes * 2):
        k = kinds[i % len(kinds)]
        cases.append(case(rng, s, m, k, none_rate=[0.0, 0.1, 0.3][i % 3], constant_row=i % 4 == 3))
    json.dump({"reference": "mt-metrics-eval 68a481a stats.py, numpy 2.4.6, scipy 1.17.1", "seed": SEED,
               "cases": cases}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
