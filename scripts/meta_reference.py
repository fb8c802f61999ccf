#!/usr/bin/env python3
"""mt-metrics-eval's rankings of a meta-evaluation table, in `mteval meta --json`'s shape.

Reads a CSV with columns system, seg_id, gold (empty: missing) and one column
per metric; orders systems by name and segments by id as `mteval meta` does;
runs the tasks in order from one `np.random.seed(SEED)` (as `mteval meta` and
mt-metrics-eval's `tasks.Run()` draw), through the pinned
mt-metrics-eval (data.py / stats.py at 68a481a, read from MTME_DIR):

  wmt23 (default): CompareMetricsWithGlobalAccuracy's ranking (sys), CompareMetrics
  with pearsonr (sys; seg, average_by none), KendallWithTiesOpt acc23 (seg, item,
  perm_test pairs, sample_rate 1.0).

System-level scores are each system's mean segment scores (np.mean; gold over
the present scores). Prints {"tasks": [...], "seconds": [...]}: the time of
each task's CompareMetrics call.

    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/meta_reference.py TABLE.csv -k 1000 --seed 12345
"""

import argparse
import csv
import json
import math
import os
import sys
import time
import types

import numpy as np
import scipy.stats

sys.path.insert(0, os.environ.get("MTME_DIR", "/tmp/mtme-repo"))
sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import data, stats  # noqa: E402

# The accuracy ranking of one test set, as the golden generator runs it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_meta_golden import accuracy_ranking  # noqa: E402


def num(x):
    x = float(x)
    return None if math.isnan(x) else x


def read(path):
    rows = {}
    with open(path) as f:
        r = csv.DictReader(f)
        metrics = [c for c in r.fieldnames if c not in ("system", "seg_id", "gold")]
        for row in r:
            g = row["gold"]
            rows.setdefault(row["system"], {})[int(row["seg_id"])] = (
                None if g == "" else float(g), [float(row[m]) for m in metrics])
    systems = sorted(rows)
    segs = sorted({s for v in rows.values() for s in v})
    gold = [rows[s][i][0] for s in systems for i in segs]
    mets = {m: [rows[s][i][1][j] for s in systems for i in segs] for j, m in enumerate(metrics)}
    sys_gold = [float(np.mean([g for g in (rows[s][i][0] for i in segs) if g is not None])) for s in systems]
    sys_mets = {m: [float(np.mean([rows[s][i][1][j] for i in segs])) for s in systems] for j, m in enumerate(metrics)}
    return systems, gold, mets, sys_gold, sys_mets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("-k", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--block-size", type=int, default=1000)
    ap.add_argument("--tasks", default="acc,sys,seg,tie", help="which of the four WMT23 tasks to run")
    a = ap.parse_args()
    systems, gold, mets, sys_gold, sys_mets = read(a.table)
    n = len(systems)
    psd = stats.PermutationSigDiffParams(block_size=a.block_size)
    out, secs = [], []
    np.random.seed(a.seed)
    for t in a.tasks.split(","):
        if t in ("acc", "sys"):
            corrs = {m: stats.Correlation(n, sys_gold, v) for m, v in sys_mets.items()}
        else:
            corrs = {m: stats.Correlation(n, gold, v) for m, v in mets.items()}
        start = time.perf_counter()
        if t == "acc":
            ranks, sig, index, _ = accuracy_ranking(corrs, a.k, psd, 0.05)
        elif t == "tie":
            ranks, sig, index, _ = data.CompareMetrics(corrs, stats.KendallWithTiesOpt, "item", a.k, psd, 0.05,
                                                       False, "pairs", variant="acc23", sample_rate=1.0)
        else:
            ranks, sig, index, _ = data.CompareMetrics(corrs, scipy.stats.pearsonr, "none", a.k, psd, 0.05)
        secs.append(time.perf_counter() - start)
        names = list(ranks)
        out.append({
            "metrics": [{"name": m, "corr": num(ranks[m][0]), "rank": int(ranks[m][1])} for m in names],
            "sig": [[float(x) for x in row] for row in sig],
            "draws": [[int(index[j, i] - index[i, j]) if j > i else 0 for j in range(len(names))]
                      for i in range(len(names))],
        })
    json.dump({"tasks": out, "seconds": secs}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
