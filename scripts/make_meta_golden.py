#!/usr/bin/env python3
"""Golden values for mteval's meta-evaluation kernels (kernels/src/meta),
computed by mt-metrics-eval's own stats.py at commit 68a481a.

The reference is read from a fetched copy of google-research/mt-metrics-eval
(never vendored, and never the unrelated PyPI package of that name):

    git clone https://github.com/google-research/mt-metrics-eval /tmp/mtme-repo
    git -C /tmp/mtme-repo checkout 68a481a
    python3 -m venv /tmp/metavenv && /tmp/metavenv/bin/pip install numpy==2.4.6 scipy==1.17.1 dacite==1.9.2
    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_meta_golden.py > tests/golden/meta.json
    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_meta_golden.py compare > tests/golden/meta_compare.json
    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_meta_golden.py spa > tests/golden/meta_spa.json
    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_meta_golden.py pdp > tests/golden/meta_pdp.json

Each case is a gold vector (with None, which mt-metrics-eval filters) and a
metric vector packed as num_sys rows of num_items scores, as its
Correlation class holds them, with the correlations of every averaging
('none', 'sys', 'item') and statistic. A NaN is written as null.

`compare` writes the second file: tie calibration (`KendallWithTiesOpt`,
exact and sampled), pairwise accuracy, and whole metric rankings
(`CompareMetrics`, with `PermutationSigDiff` or `PairwisePermutationSigDiff`
under `np.random.seed(seed)`, and the accuracy ranking of
`CompareMetricsWithGlobalAccuracy` for one test set): correlations, the
significance matrix, the draws done per pair and the rank clusters. The
reference's data.py imports apache_beam for its parallel mode only; a stub
stands in for it here. Python 3.11 (its `sum` of floats is a plain left
fold, as the tie calibration's running total assumes).
"""

import json
import math
import os
import random
import sys

import types

import numpy as np

sys.path.insert(0, os.environ.get("MTME_DIR", "/tmp/mtme-repo"))
sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import data, stats  # noqa: E402

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


def tie_opt_cases(rng):
    out = []
    for i, (s, m) in enumerate([(3, 6), (5, 10), (15, 12), (4, 30), (8, 8)]):
        kinds = [("ties", "ties"), ("half", "cont"), ("cont", "half"), ("ties", "cont"), ("half", "half")][i]
        n = s * m
        gold = vector(rng, n, kinds[0])
        metric = vector(rng, n, kinds[1])
        gold = [None if rng.random() < [0.0, 0.1, 0.2, 0.0, 0.3][i] else g for g in gold]
        if i == 4:
            # Rows with no or one gold score: a sparse set of row numbers.
            for item in range(m):
                if item % 3:
                    for sys_ in range(s):
                        if sys_ != item % s:
                            gold[sys_ * m + item] = None
        res = []
        for avg in ("none", "sys", "item"):
            for variant in ("23", "acc23"):
                tau, eps, _ = stats.KendallWithTiesOpt(gold, metric, variant, s, avg, sample_rate=1.0)
                np.random.seed(1000 + i)
                stau, seps, _ = stats.KendallWithTiesOpt(gold, metric, variant, s, avg, sample_rate=0.3)
                res.append({"average_by": avg, "variant": variant, "tau": num(tau), "epsilon": float(eps),
                            "sampled_seed": 1000 + i, "sampled_rate": 0.3, "sampled_tau": num(stau),
                            "sampled_epsilon": float(seps)})
        acc = stats.Agreement(gold, metric)
        out.append({"num_sys": s, "gold": gold, "metric": metric, "results": res,
                    "accuracy": num(acc[0] / acc[1]) if acc[1] else None})
    return out


def accuracy_ranking(corrs, k, psd, pval):
    """CompareMetricsWithGlobalAccuracy for one test set, on given Correlations."""
    def _Accuracy(vect1, vect2):
        a, p = stats.Agreement(vect1, vect2)
        return a / p, p
    ranks = {m: [_Accuracy(c.gold_scores, c.metric_scores)[0], 0] for m, c in corrs.items()}
    ranks = dict(sorted(ranks.items(), key=lambda x: (-x[1][0], x[0])))
    sig, index, draws = data.ComputeSigMatrix(corrs, ranks, _Accuracy, "none", k, psd, False, "scores")
    for i, r in enumerate(data.AssignRanks(sig, pval)):
        ranks[list(ranks)[i]][1] = r
    return ranks, sig, index, draws


def compare_cases(rng):
    out = []
    specs = [
        # (num_sys, items, metrics, measure, average_by, perm_test, k, block, seed)
        (12, 1, 5, "pearson", "none", "scores", 300, 100, 11),
        (10, 1, 4, "accuracy", "none", "scores", 200, 1000, 12),
        (6, 20, 4, "pearson", "none", "scores", 200, 50, 13),
        (6, 20, 4, "pearson", "item", "scores", 100, 1000, 14),
        (5, 15, 3, "spearman", "sys", "scores", 100, 1000, 15),
        (6, 12, 4, "kendall_acc23_eps0.5", "item", "scores", 100, 1000, 16),
        (6, 12, 4, "kendall_b", "none", "scores", 100, 25, 17),
        (5, 10, 4, "tiesopt_acc23", "item", "pairs", 100, 1000, 18),
        (5, 10, 3, "tiesopt_23", "none", "pairs", 60, 20, 19),
        (4, 8, 3, "tiesopt_acc23", "item", "scores", 40, 1000, 20),
        (4, 8, 3, "tiesopt_acc23_sampled", "sys", "pairs", 40, 1000, 21),
    ]
    import scipy.stats
    for num_sys, items, nm, measure, avg, test, k, block, seed in specs:
        n = num_sys * items
        gold = [rng.randint(0, 6) / 2 if rng.random() < 0.5 else rng.uniform(0, 3) for _ in range(n)]
        gold = [None if rng.random() < 0.1 else g for g in gold]
        metrics = {}
        for j in range(nm):
            noise = [0.3, 1.0, 2.0, 0.5, 4.0][j % 5]
            vals = [(g if g is not None else 1.5) + rng.gauss(0, noise) for g in gold]
            if j % 2:
                vals = [round(v, 1) for v in vals]
            metrics[f"m{j}"] = vals
        if measure == "accuracy":
            # Close scores, so that some pairs are not significant.
            metrics["m1"] = list(metrics["m0"])
            metrics["m1"][0] += 0.01
        corrs = {name: stats.Correlation(num_sys, gold, vals) for name, vals in metrics.items()}
        psd = stats.PermutationSigDiffParams(block_size=block)
        np.random.seed(seed)
        if measure == "accuracy":
            ranks, sig, index, draws = accuracy_ranking(corrs, k, psd, 0.05)
        else:
            if measure == "pearson":
                fcn, args = scipy.stats.pearsonr, {}
            elif measure == "spearman":
                fcn, args = scipy.stats.spearmanr, {}
            elif measure.startswith("kendall_"):
                rest = measure[len("kendall_"):]
                v, _, e = rest.partition("_eps")
                fcn, args = stats.KendallVariants, {"variant": v, **({"epsilon": float(e)} if e else {})}
            else:
                v = measure.split("_")[1]
                rate = 0.5 if measure.endswith("sampled") else 1.0
                fcn, args = stats.KendallWithTiesOpt, {"variant": v, "sample_rate": rate}
            ranks, sig, index, draws = data.CompareMetrics(corrs, fcn, avg, k, psd, 0.05, False, test, **args)
        names = list(ranks)
        used = [[int(index[j, i] - index[i, j]) if j > i else 0 for j in range(len(names))]
                for i in range(len(names))]
        out.append({"num_sys": num_sys, "gold": gold, "metrics": metrics, "measure": measure, "average_by": avg,
                    "perm_test": test, "k": k, "block_size": block, "seed": seed,
                    "ranking": [[m, num(ranks[m][0]), int(ranks[m][1])] for m in names],
                    "sig": [[float(x) for x in row] for row in sig], "draws": used})
    return out


def main_compare():
    rng = random.Random(SEED + 1)
    json.dump({"reference": "mt-metrics-eval 68a481a data.py/stats.py, numpy 2.4.6, scipy 1.17.1, Python 3.11",
               "seed": SEED + 1, "tie_opt": tie_opt_cases(rng), "compare": compare_cases(rng)}, sys.stdout)
    sys.stdout.write("\n")


def spa_cases(rng):
    """Soft pairwise accuracy (`PairwiseConfidenceError` over pce.py): tables of systems x segments with MQM-like
    gold scores (negative, many zeros and ties) or continuous ones, some segments missing their gold score for
    every system (what filter_gold_nones can reshape), metrics continuous, tied, equal to the gold or constant;
    with the p-values of both sides."""
    from mt_metrics_eval import pce

    out = []
    for i, (s, m) in enumerate([(2, 10), (3, 20), (5, 50), (8, 100), (12, 300), (15, 500), (6, 1500), (10, 40)]):
        for j in range(2):
            mqm = (i + j) % 2 == 0
            rows = [[-float(rng.choice([0, 0, 0, 1, 2, 5, 5, 10, 25])) if mqm else rng.uniform(0, 100)
                     for _ in range(m)] for _ in range(s)]
            kind = (i * 2 + j) % 4
            if kind == 0:
                metric = [[g + rng.gauss(0, 3) for g in row] for row in rows]
            elif kind == 1:
                metric = [[float(rng.randint(0, 3)) for _ in row] for row in rows]
            elif kind == 2:
                metric = [[rng.random() for _ in row] for row in rows]
            else:
                metric = [list(row) for row in rows]
            if (i * 2 + j) == 5:
                metric[0] = [0.5] * m
            gold = [g for row in rows for g in row]
            missing = {k for k in range(m) if rng.random() < [0.0, 0.1, 0.3][(i + j) % 3]}
            gold = [None if (k % m) in missing else g for k, g in enumerate(gold)]
            flat = [x for row in metric for x in row]
            perms, seed = ([1000, 4], [200, 7], [1000, 4])[(i + j) % 3]
            g2, m2 = stats.filter_gold_nones(gold, flat)
            gm = np.asarray(g2).reshape(s, -1)
            mm = np.asarray(m2).reshape(s, -1)
            gp = pce.compute_pairwise_p_values(gm, num_permutations=perms, seed=seed)
            mp = pce.compute_pairwise_p_values(mm, num_permutations=perms, seed=seed)
            tri = np.triu_indices(s, 1)
            val = pce.compute_one_minus_pce(gp, mp)
            if (perms, seed) == (1000, 4):
                assert val == stats.PairwiseConfidenceError(gold, flat, s, filter_nones=bool(missing))[0]
            out.append({"num_sys": s, "gold": gold, "metric": flat, "perms": perms, "seed": seed, "spa": float(val),
                        "gold_p": [float(x) for x in gp[tri]], "metric_p": [float(x) for x in mp[tri]]})
    return out


def spa_compare(rng):
    """CompareMetricsWithPairwiseConfidenceError: SPA ranking with its permutation test."""
    out = []
    for s, m, nm, k, block, seed in [(6, 60, 4, 40, 20, 31), (10, 30, 3, 30, 1000, 32)]:
        rows = [[-float(rng.choice([0, 0, 1, 5, 10])) for _ in range(m)] for _ in range(s)]
        gold = [g for row in rows for g in row]
        metrics = {}
        for n in range(nm):
            noise = [1.0, 3.0, 8.0, 20.0][n]
            metrics[f"m{n}"] = [g + rng.gauss(0, noise) for g in gold]
        corrs = {name: stats.Correlation(s, gold, v) for name, v in metrics.items()}
        psd = stats.PermutationSigDiffParams(block, 0.02, 0.5)
        np.random.seed(seed)
        ranks, sig, index, draws = data.CompareMetricsWithPairwiseConfidenceError(corrs, k, psd, 0.05)
        names = list(ranks)
        used = [[int(index[j, i] - index[i, j]) if j > i else 0 for j in range(len(names))]
                for i in range(len(names))]
        out.append({"num_sys": s, "gold": gold, "metrics": metrics, "k": k, "block_size": block, "seed": seed,
                    "ranking": [[n, float(ranks[n][0]), int(ranks[n][1])] for n in names],
                    "sig": [[float(x) for x in row] for row in sig], "draws": used})
    return out


def pdp_cases(rng):
    """Pairwise Difference Pearson (`Correlation.Pearson(pdp=True)`, `_enumerate_pairwise_diffs`): every averaging,
    with and without replace_nans_with_zeros, over shapes from 2 systems up, gold scores with ties and missing
    ones, constant metric rows; None where the reference raises (fewer than 2 scores a row)."""
    import scipy.stats

    out = []
    shapes = [(2, 5), (3, 4), (4, 10), (5, 7), (15, 20), (6, 1), (1, 6), (8, 30)]
    kinds = [("ties", "ties"), ("half", "cont"), ("cont", "cont"), ("cont", "ties")]
    for i, (s, m) in enumerate(shapes * 2):
        kind = kinds[i % len(kinds)]
        n = s * m
        gold = vector(rng, n, kind[0])
        metric = vector(rng, n, kind[1])
        if i % 5 == 4:
            metric = [1.25] * n
        gold = [None if rng.random() < [0.0, 0.1, 0.3][i % 3] else g for g in gold]
        corr = stats.Correlation(s, gold, metric)
        res = []
        for avg in ("none", "sys", "item"):
            for zeros in (False, True):
                try:
                    c = corr.AverageCorrelation(scipy.stats.pearsonr, avg, zeros, True, pdp=True)(gold, metric)
                    value = [num(c[0]), int(c[2])]
                except ValueError:
                    value = None
                res.append({"average_by": avg, "replace_nans_with_zeros": zeros, "pdp": value})
        out.append({"num_sys": s, "gold": gold, "metric": metric, "results": res})
    # The permutation test does not take pdp: CompareMetrics hands it to scipy's pearsonr.
    corrs = {m: stats.Correlation(3, [1.0, 2.0, 3.0], v) for m, v in {"a": [1.0, 2.0, 4.0], "b": [3.0, 1.0, 2.0]}.items()}
    try:
        data.CompareMetrics(corrs, scipy.stats.pearsonr, "none", 10, pdp=True)
        raised = None
    except TypeError as e:
        raised = str(e)
    return out, raised


def main():
    if sys.argv[1:] == ["pdp"]:
        rng = random.Random(SEED + 3)
        cases, raised = pdp_cases(rng)
        json.dump({"reference": "mt-metrics-eval 68a481a stats.py, numpy 2.4.6, scipy 1.17.1", "seed": SEED + 3,
                   "cases": cases, "permutation_test_with_pdp": raised}, sys.stdout)
        sys.stdout.write("\n")
        return
    if sys.argv[1:] == ["compare"]:
        return main_compare()
    if sys.argv[1:] == ["spa"]:
        rng = random.Random(SEED + 2)
        json.dump({"reference": "mt-metrics-eval 68a481a stats.py/pce.py/data.py, numpy 2.4.6", "seed": SEED + 2,
                   "spa": spa_cases(rng), "compare": spa_compare(rng)}, sys.stdout)
        sys.stdout.write("\n")
        return
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
