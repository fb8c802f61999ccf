#!/usr/bin/env python3
"""The reference's side of scripts/meta-taskset-bench.sh: a WMT25-shaped synthetic test set
(every pair of tasks.WMT25, SYSTEMS systems x SEGMENTS segments, METRICS metrics, written in
mt-metrics-eval's layout under ROOT by make_taskset_golden.py's generator), then
`np.random.seed(SEED); tasks.WMT25(k=K).Run()` timed, with its final text table.

    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/meta_taskset_bench.py ROOT SYSTEMS SEGMENTS METRICS K
Prints {"seconds": ..., "table": ...}; with K = -1 only writes the layout.
"""

import json
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_taskset_golden as g  # noqa: E402


def main():
    root, n_sys, n_seg, n_met, k = sys.argv[1], *map(int, sys.argv[2:6])
    conf = dict(g.SETS["wmt25"])
    conf["metrics"] = ["BLEU", "MetricX-25"] + [f"m{i}" for i in range(max(n_met - 4, 0))]
    conf["noref"] = ["TASER-No-Ref", "COMETKiwi22"]
    lps = g.meta_info.DATA["wmt25"]
    rng = random.Random(2025)
    spec = {lp: {"refs": ["refA"], "std": "refA", "gold": info.std_gold["seg"], "extra_sys": []}
            for lp, info in lps.items()}
    data = {lp: g.make_lp(rng, s, conf, n_sys, n_seg) for lp, s in spec.items()}
    if k < 0:
        g.write_layout(root, "wmt25", data)
        return
    evs = {("wmt25", lp): g.data.EvalSet("wmt25", lp, True, path=root) for lp in data}
    task_set, weights = g.tasks.WMT25(sorted(data), primary=False, k=k)
    np.random.seed(12345)
    t0 = time.time()
    results = task_set.Run(eval_set_dict=evs)
    avg = results.AverageCorrMatrix(weights)[0] if k > 0 else results.AverageCorrs(weights)
    secs = time.time() - t0
    table = results.Table(metrics=list(avg), initial_column=avg, initial_column_header="avg-corr",
                          attr_list=["lang", "level", "corr_fcn"], nicknames={"KendallWithTiesOpt": "acc-t"},
                          fmt="text", which_metrics="union", baselines_metainfo=g.meta_info.WMT25)
    json.dump({"seconds": secs, "table": table}, sys.stdout)


if __name__ == "__main__":
    main()
