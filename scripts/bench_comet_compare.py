#!/usr/bin/env python3
"""comet-compare's statistics: mteval.comet_compare vs unbabel-comet 2.2.7's own functions (the part of
comet-compare after the model has scored: bootstrap_resampling, pairwise_bootstrap, ttest_rel per pair), in
one process on the same random float32 score matrix.

Both sides are timed best of --repeats; every number of every pair is checked equal (bit for bit), so a
faster wrong answer fails. Prints a table (systems x segments, reference seconds, mteval seconds, ratio).

Usage (the Python test venv, e.g. target/pyvenv after scripts/test-python.sh, which also fetches compare.py):
    target/pyvenv/bin/python scripts/bench_comet_compare.py target/comet-wheel/comet/cli/compare.py \
        [--sizes 4x2000,8x10000,4x100000,16x50000] [--repeats 3]
"""
import argparse, math, os, sys, time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comet_reference  # noqa: E402
import mteval  # noqa: E402


def best(f, repeats):
    out, t = None, math.inf
    for _ in range(repeats):
        s = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - s)
    return out, t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compare_py")
    ap.add_argument("--sizes", default="4x2000,8x10000,4x100000,16x50000")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    cc = comet_reference.load(a.compare_py)
    rng = np.random.default_rng(2026)
    print(f"{'systems x segments':>20}  {'comet-compare (s)':>18}  {'mteval (s)':>11}  {'ratio':>7}")
    bad = 0
    for size in a.sizes.split(","):
        systems, segments = (int(x) for x in size.split("x"))
        base = rng.uniform(0.4, 0.9, segments)
        scores = [np.clip(base + rng.normal(0.01 * i, 0.05, segments), 0, 1).astype(np.float32).tolist()
                  for i in range(systems)]
        names = [f"sys{i}" for i in range(systems)]
        (want, _), t_ref = best(lambda: comet_reference.reference(cc, scores, names), a.repeats)
        got, t_mt = best(lambda: mteval.comet_compare(dict(zip(names, scores))), a.repeats)
        for g, w in zip(got["statistical_results"], want):
            for part in ("bootstrap_resampling", "paired_t-test"):
                for k, v in w[part].items():
                    x, y = float(g[part][k]), float(v)
                    if not (x == y or (math.isnan(x) and math.isnan(y))):
                        bad += 1
                        print(f"DIFFERENT {size} {g['x_name']} {g['y_name']} {part}.{k}: {x} vs {y}")
        print(f"{size:>20}  {t_ref:>18.3f}  {t_mt:>11.3f}  {t_ref / t_mt:>6.1f}x")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
