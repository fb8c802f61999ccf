#!/usr/bin/env python3
"""chrF benchmarks against the reference implementations, in one run on the same data.

1. Whole-process sentence chrF (process start included) on --rows rows (the
   shared WMT rows repeated): sacrebleu 2.6.0 (a fresh Python process,
   CHRF().sentence_score per line) vs `mteval score --hyp/--ref --sentence -m chrf`
   and `mteval score rows.parquet -m chrf -o scored.parquet`; every sentence
   score must be identical.
2. pairwise_chrf and aggregate_chrf at N = 64, 256, 1024 (one self-MBR group:
   texts taken in order from the non-empty hypotheses, en-de first, as in the
   shared timings.md; best of --repeats runs, in-process): fastchrf 0.2.1 vs
   mteval's kernel API (examples/pairwise_chrf.rs); outputs must be identical.

Usage: python3 scripts/bench_chrf.py [--rows 75000] [--repeats 3]
Needs the oracle venv (sacrebleu, fastchrf, numpy).
"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (ROOT, bench_args, load_wmt_rows, print_speed_table, repeat_rows,  # noqa: E402
                     sentence_bench, timed)

LABELS = ["sacrebleu 2.6.0 CHRF sentence (python)", "mteval score --hyp/--ref -m chrf --sentence",
          "mteval score rows.parquet -m chrf -o ..."]

FASTCHRF = r"""
import json, sys, timeit
import fastchrf
texts = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1][: int(sys.argv[2])]
fn = getattr(fastchrf, sys.argv[4])
best = min(timeit.repeat(lambda: fn([texts], [texts]), number=1, repeat=int(sys.argv[3])))
out = fn([texts], [texts])[0]
with open(sys.argv[5], 'w') as f:
    rows = out if sys.argv[4] == 'pairwise_chrf' else [out]
    for r in rows:
        f.write('[' + ','.join(repr(float(x)) for x in r) + ']\n')
print(json.dumps({'seconds': best}))
"""


def main():
    args = bench_args(75000, repeats=3)
    rows = load_wmt_rows()
    texts = [r["hyp"] for r in rows if r["hyp"]]
    rows = repeat_rows(rows, args.rows)
    assert not any("\n" in r["hyp"] or "\n" in r["ref"] for r in rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-chrf-")
    tx = os.path.join(tmp, "texts.txt")
    with open(tx, "w", encoding="utf-8") as f:
        f.write("\n".join(texts) + "\n")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "mteval-kernels", "--example", "pairwise_chrf"], cwd=ROOT, check=True)
    kbin = os.path.join(ROOT, "target", "release", "examples", "pairwise_chrf")

    diff, times = sentence_bench(args, tmp, rows, "sacrebleu.txt", "from sacrebleu.metrics import CHRF\nm = CHRF()",
                                 "m.sentence_score(h, [r]).score", ["-m", "chrf"], "chrf")
    ok = diff <= 1e-9
    print(f"sentence chrF, rows: {len(rows)} (shared WMT rows repeated; max |mteval - sacrebleu| = {diff:.3g})")
    print_speed_table(len(rows), 44, "vs sacrebleu", 13, LABELS, times)
    print()
    print(f"{'function':16s} {'N':>5s} {'fastchrf s':>11s} {'mteval s':>10s} {'speed-up':>9s} identical")
    for fn in ["pairwise_chrf", "aggregate_chrf"]:
        for N in [64, 256, 1024]:
            fo, mo = os.path.join(tmp, f"f{fn}{N}.txt"), os.path.join(tmp, f"m{fn}{N}.txt")
            _, fj = timed([args.python, "-c", FASTCHRF, tx, str(N), str(args.repeats), fn, fo])
            mode = "aggregate" if fn.startswith("aggregate") else "pairwise"
            _, mj = timed([kbin, tx, str(N), str(args.repeats), mo, mode])
            ft, mtm = json.loads(fj)["seconds"], json.loads(mj)["seconds"]
            same = [json.loads(l) for l in open(fo)] == [json.loads(l) for l in open(mo)]
            ok &= same
            print(f"{fn:16s} {N:5d} {ft:11.4f} {mtm:10.4f} {ft / mtm:8.1f}x {same}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
