#!/usr/bin/env python3
"""Golden values for `mteval meta --tasks wmt23|wmt24|wmt25`: mt-metrics-eval's
own task sets (tasks.WMT23, tasks.WMT24, tasks.WMT25 at commit 68a481a) run on
synthetic test sets written in its data layout.

The reference is the fetched copy and venv of scripts/make_meta_golden.py's
docstring (/tmp/mtme-repo at 68a481a, /tmp/metavenv); then

    MTME_DIR=/tmp/mtme-repo /tmp/metavenv/bin/python scripts/make_taskset_golden.py > tests/golden/meta_tasksets.json

For each task set: three language pairs (wmt23: en-de with its outlier
system, he-en with two references whose non-standard one is a human system;
wmt24: en-de whose standard reference is refB, human output and the outlier
MSLC; wmt25: MQM and ESA pairs), 6-8 systems, 24-30 segments, metrics that
are primary, baseline, contrastive and reference-free, one metric using the
other reference (left out), gold scores MQM-like (many ties) with missing
ones (single scores for WMT23; whole segments for WMT24/25, as soft pairwise
accuracy requires) and one system without any gold score (left out); a
metric with integer scores (ties across systems) in WMT23 only: in soft
pairwise accuracy's permutation test a metric's tied scores make many
permuted differences equal to the observed one in exact arithmetic, and
which way the reference's float32 `matmul` rounds them is its BLAS's
summation order (mteval compares the exact sums).
System-level scores are the means of the segment scores.

The reference runs `np.random.seed(SEED); tasks.Run(eval_set_dict)` with every
metric (primary=False), and the averages (AverageCorrMatrix, AverageRanks)
and tables (Table(..., which_metrics='union'), text, tsv and latex) of the
notebooks. mt-metrics-eval iterates the systems of a Python set, whose order
follows PYTHONHASHSEED; here the `set` its data.py builds iterates in name
order (mteval's order), the only change. The reference's data.py imports
apache_beam for its parallel mode only; a stub stands in for it.

The output holds the data compactly (per pair: systems, references, gold and
metric scores per segment, the system-level means as written) for the Rust
test to write the same layout, and the reference's results.
"""

import json
import os
import random
import sys
import tempfile
import types

import numpy as np

sys.path.insert(0, os.environ.get("MTME_DIR", "/tmp/mtme-repo"))
sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import data, meta_info, tasks  # noqa: E402


class NameOrderSet(set):
    """A set that iterates in sorted order (mteval's system order)."""

    def __iter__(self):
        return iter(sorted(set.__iter__(self)))


data.set = NameOrderSet

SETS = {
    "wmt23": {
        "fn": tasks.WMT23,
        "info": meta_info.WMT23,
        "k": 200,
        "seed": 23,
        "lps": {
            "en-de": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": ["synthetic_ref"]},
            "he-en": {"refs": ["refA", "refB"], "std": "refB", "gold": "mqm", "extra_sys": []},
            "zh-en": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": ["synthetic_ref"]},
        },
        "metrics": ["BLEU", "MetricX-23", "lendiff", "chrF"],
        "noref": ["CometKiwi", "XCOMET-QE-Ensemble"],
        "whole_segments": False,
        "metric_ties": True,
    },
    "wmt24": {
        "fn": tasks.WMT24,
        "info": meta_info.WMT24,
        "k": 200,
        "seed": 24,
        "lps": {
            "en-de": {"refs": ["refA", "refB"], "std": "refB", "gold": "mqm", "extra_sys": ["MSLC"]},
            "en-es": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": ["MSLC"]},
            "ja-zh": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": ["MSLC"]},
        },
        "metrics": ["BLEU", "MetricX-24-Hybrid", "lendiff", "chrfS"],
        "noref": ["CometKiwi"],
        "whole_segments": True,
        "metric_ties": False,
    },
    "wmt25": {
        "fn": tasks.WMT25,
        "info": meta_info.WMT25,
        "k": 200,
        "seed": 25,
        "lps": {
            "cs-uk_UA": {"refs": ["refA"], "std": "refA", "gold": "esa-human1", "extra_sys": []},
            "en-ko_KR": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": []},
            "ja-zh_CN": {"refs": ["refA"], "std": "refA", "gold": "mqm", "extra_sys": []},
        },
        "metrics": ["BLEU", "MetricX-25", "lendiff"],
        "noref": ["TASER-No-Ref", "COMETKiwi22"],
        "whole_segments": True,
        "metric_ties": False,
    },
}


def r4(x):
    return round(x, 4)


def make_lp(rng, spec, conf, n_sys=None, n_seg=None):
    """One language pair's scores (6-8 systems and 24-30 segments unless given)."""
    n_sys = n_sys or rng.randint(6, 8)
    n_seg = n_seg or rng.randint(24, 30)
    systems = [f"sys{chr(65 + i)}" for i in range(n_sys)] + spec["extra_sys"]
    # Human translations (the references) are systems too.
    all_sys = systems + spec["refs"]
    quality = {s: rng.uniform(-1, 1) for s in all_sys}
    gold = {}
    missing_segs = {i for i in range(n_seg) if rng.random() < 0.1}
    no_gold = systems[1]  # one system without any gold score
    for s in all_sys:
        row = []
        for i in range(n_seg):
            g = -float(rng.choice([0, 0, 0, 1, 1, 2, 5, 5, 10, 25]))
            if s == no_gold or i in missing_segs:
                g = None
            elif not conf["whole_segments"] and rng.random() < 0.08:
                g = None
            row.append(g)
        gold[s] = row
    metrics = {}
    names = [(m, spec["std"]) for m in conf["metrics"]] + [(m, "src") for m in conf["noref"]]
    if len(spec["refs"]) > 1:
        other = [r for r in spec["refs"] if r != spec["std"]][0]
        names.append(("BLEU", other))  # uses the non-standard reference: left out
    for j, (m, ref) in enumerate(names):
        scores = {}
        for s in all_sys:
            row = []
            for i in range(n_seg):
                g = gold[s][i] if gold[s][i] is not None else -3.0
                v = 0.3 * g + quality[s] + rng.gauss(0, 2.0 + j)
                if m == "BLEU" and conf["metric_ties"]:
                    v = float(round(v))  # ties
                row.append(r4(v))
            scores[s] = row
        metrics[f"{m}-{ref}"] = scores
    return {"systems": all_sys, "refs": spec["refs"], "n_seg": n_seg, "gold_name": spec["gold"], "gold": gold,
            "metrics": metrics}


def mean_or_none(v):
    v = [x for x in v if x is not None]
    return float(np.mean(v)) if v else None


def write_layout(root, test_set, lps):
    """The mt-metrics-eval layout of the pairs; returns the system-level scores written."""
    d = os.path.join(root, test_set)
    for sub in ("documents", "sources", "references", "human-scores", "system-outputs", "metric-scores"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for lp, x in lps.items():
        n = x["n_seg"]
        with open(os.path.join(d, "documents", f"{lp}.docs"), "w") as f:
            f.writelines(f"news doc{i // 6}\n" for i in range(n))
        with open(os.path.join(d, "sources", f"{lp}.txt"), "w") as f:
            f.writelines(f"source {i}\n" for i in range(n))
        for r in x["refs"]:
            with open(os.path.join(d, "references", f"{lp}.{r}.txt"), "w") as f:
                f.writelines(f"{r} {i}\n" for i in range(n))
        os.makedirs(os.path.join(d, "system-outputs", lp), exist_ok=True)
        for s in x["systems"]:
            with open(os.path.join(d, "system-outputs", lp, f"{s}.txt"), "w") as f:
                f.writelines(f"{s} {i}\n" for i in range(n))
        g = x["gold_name"]
        x["sys_gold"] = {s: mean_or_none(v) for s, v in x["gold"].items()}
        with open(os.path.join(d, "human-scores", f"{lp}.{g}.seg.score"), "w") as f:
            for s in x["systems"]:
                f.writelines(f"{s}\t{v}\n" for v in x["gold"][s])
        with open(os.path.join(d, "human-scores", f"{lp}.{g}.sys.score"), "w") as f:
            for s in x["systems"]:
                f.write(f"{s}\t{x['sys_gold'][s]!r}\n")
        # The test sets' meta-information names domain-level gold scores too (one domain).
        with open(os.path.join(d, "human-scores", f"{lp}.{g}.domain.score"), "w") as f:
            for s in x["systems"]:
                f.write(f"news\t{s}\t{x['sys_gold'][s]!r}\n")
        md = os.path.join(d, "metric-scores", lp)
        os.makedirs(md, exist_ok=True)
        x["sys_metrics"] = {}
        for name, scores in x["metrics"].items():
            with open(os.path.join(md, f"{name}.seg.score"), "w") as f:
                for s in x["systems"]:
                    f.writelines(f"{s}\t{v!r}\n" for v in scores[s])
            sm = {s: float(np.mean(v)) for s, v in scores.items()}
            x["sys_metrics"][name] = sm
            with open(os.path.join(md, f"{name}.sys.score"), "w") as f:
                for s in x["systems"]:
                    f.write(f"{s}\t{sm[s]!r}\n")


def run_set(name, conf, rng, root):
    lps = {lp: make_lp(rng, spec, conf) for lp, spec in conf["lps"].items()}
    write_layout(root, name, lps)
    evs = {(name, lp): data.EvalSet(name, lp, True, path=root) for lp in lps}
    task_set, weights = conf["fn"](sorted(lps), primary=False, k=conf["k"])
    np.random.seed(conf["seed"])
    results = task_set.Run(eval_set_dict=evs)
    avg, matrix = results.AverageCorrMatrix(weights)
    ranks = results.AverageRanks(weights)
    out_tasks = []
    for r in results:
        out_tasks.append({
            "lp": r.attr_vals["lang"], "level": r.attr_vals["level"], "corr_fcn": r.attr_vals["corr_fcn"],
            "order": list(r.corr_ranks),
            "metrics": {m: {"corr": float(c), "rank": int(k)} for m, (c, k) in r.corr_ranks.items()},
        })
    tables = {}
    for fmt in ("text", "tsv", "latex"):
        tables[fmt] = results.Table(
            metrics=list(avg), initial_column=avg, initial_column_header="avg-corr",
            attr_list=["lang", "level", "corr_fcn"], nicknames={"KendallWithTiesOpt": "acc-t"}, fmt=fmt,
            which_metrics="union", baselines_metainfo=conf["info"])
    return {
        "test_set": name, "k": conf["k"], "seed": conf["seed"], "weights": weights,
        "lps": {lp: {k: x[k] for k in ("systems", "refs", "n_seg", "gold_name", "gold", "metrics", "sys_gold",
                                       "sys_metrics")} for lp, x in lps.items()},
        "tasks": out_tasks,
        "average": {m: {"corr": float(c), "rank": int(k)} for m, (c, k) in avg.items()},
        "average_order": list(avg),
        "average_sig": matrix.tolist(),
        "average_ranks": {m: float(v) for m, v in ranks.items()},
        "average_rank_order": list(ranks),
        "tables": tables,
    }


def main():
    rng = random.Random(20261128)
    out = []
    with tempfile.TemporaryDirectory() as root:
        for name in sys.argv[1:] or SETS:
            out.append(run_set(name, SETS[name], rng, root))
            print(f"{name}: done", file=sys.stderr)
    json.dump({"sets": out}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
