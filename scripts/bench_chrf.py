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
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(ROOT, "..", "shared"))

SACREBLEU = r"""
import sys
from sacrebleu.metrics import CHRF
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
m = CHRF()
with open(sys.argv[3], 'w') as out:
    for h, r in zip(hyps, refs):
        out.write(repr(m.sentence_score(h, [r]).score) + '\n')
"""

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
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=75000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mteval", default=os.path.join(ROOT, "target", "release", "mteval"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venvs/oracle/bin/python"))
    args = ap.parse_args()
    rows = []
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"]:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(l) for l in f]
    texts = [r["hyp"] for r in rows if r["hyp"]]
    rows = (rows * (args.rows // len(rows) + 1))[: args.rows]
    assert not any("\n" in r["hyp"] or "\n" in r["ref"] for r in rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-chrf-")
    hyp, ref, jl, tx = (os.path.join(tmp, n) for n in ("hyp.txt", "ref.txt", "rows.jsonl", "texts.txt"))
    with open(hyp, "w", encoding="utf-8") as h, open(ref, "w", encoding="utf-8") as r, open(jl, "w", encoding="utf-8") as j:
        for x in rows:
            h.write(x["hyp"] + "\n")
            r.write(x["ref"] + "\n")
            j.write(json.dumps({"hyp": x["hyp"], "ref": x["ref"], "system": x["system"]}, ensure_ascii=False) + "\n")
    with open(tx, "w", encoding="utf-8") as f:
        f.write("\n".join(texts) + "\n")
    pq = os.path.join(tmp, "rows.parquet")
    subprocess.run([args.mteval, "sql", "-c", f"SELECT * FROM '{jl}'", "-o", pq], check=True, capture_output=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "mteval-kernels", "--example", "pairwise_chrf"], cwd=ROOT, check=True)
    kbin = os.path.join(ROOT, "target", "release", "examples", "pairwise_chrf")

    def timed(cmd):
        t = time.perf_counter()
        p = subprocess.run(cmd, check=True, capture_output=True, text=True)
        return time.perf_counter() - t, p.stdout

    ok = True
    sb_out = os.path.join(tmp, "sacrebleu.txt")
    t_sb, _ = timed([args.python, "-c", SACREBLEU, hyp, ref, sb_out])
    t_txt, out = timed([args.mteval, "score", "--hyp", hyp, "--ref", ref, "-m", "chrf", "--sentence", "-w", "17"])
    t_pq, _ = timed([args.mteval, "score", pq, "-m", "chrf", "-o", os.path.join(tmp, "scored.parquet")])
    sb = [float(l) for l in open(sb_out)]
    mt = [float(l.split("\t")[1]) for l in out.splitlines() if "\t" in l]
    assert len(sb) == len(mt) == len(rows), (len(sb), len(mt))
    diff = max(abs(a - b) for a, b in zip(sb, mt))
    ok &= diff <= 1e-9
    n = len(rows)
    print(f"sentence chrF, rows: {n} (shared WMT rows repeated; max |mteval - sacrebleu| = {diff:.3g})")
    print(f"{'what':44s} {'seconds':>8s} {'rows/s':>10s} {'vs sacrebleu':>13s}")
    print(f"{'sacrebleu 2.6.0 CHRF sentence (python)':44s} {t_sb:8.2f} {n / t_sb:10.0f} {1:12.1f}x")
    print(f"{'mteval score --hyp/--ref -m chrf --sentence':44s} {t_txt:8.2f} {n / t_txt:10.0f} {t_sb / t_txt:12.1f}x")
    print(f"{'mteval score rows.parquet -m chrf -o ...':44s} {t_pq:8.2f} {n / t_pq:10.0f} {t_sb / t_pq:12.1f}x")
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
