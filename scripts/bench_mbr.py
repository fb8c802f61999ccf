#!/usr/bin/env python3
"""MBR selection at scale: `mteval mbr` against fastchrf 0.2.1 + numpy, on the same candidates.

Builds S sources with K candidates each (perturbed shared WMT sentences, a
fixed seed), writes them to Parquet with pyarrow, then selects one candidate
per source by mean pairwise chrF against the source's own candidates:

* fastchrf: `pairwise_chrf(hyps, hyps)` over batches of sources (fastchrf
  parallelises over the batch), `numpy.mean(axis=1)`, `numpy.argmax` (first
  best). Timed in-process, the Parquet read included, Python start and imports excluded.
* mteval: `mteval mbr IN.parquet --group-by src_id -o OUT.parquet`, the whole
  process (start, read, select, write).

Every selected candidate and its utility must be identical (utility as f64,
bit for bit). Prints one line per (S, K) with both times and the ratio.

Usage: python3 scripts/bench_mbr.py [--shapes 1000x64,200x256,16x1024] [--batch 64]
Needs the oracle venv (fastchrf, numpy, pyarrow) and a release build.
"""
import argparse, os, random, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import add_tool_args  # noqa: E402
from diff_ter import load_sentences, perturb  # noqa: E402  (same sentences and edits as the differential tests)

FASTCHRF = r"""
import json, sys, time
import numpy as np, pyarrow.parquet as pq, fastchrf
t0 = time.perf_counter()
t = pq.read_table(sys.argv[1], columns=["src_id", "cand", "hyp"]).to_pydict()
groups = {}
for s, c, h in zip(t["src_id"], t["cand"], t["hyp"]):
    groups.setdefault(s, []).append((c, h))
srcs = list(groups)
batch = int(sys.argv[2])
out = []
for b in range(0, len(srcs), batch):
    hyps = [[h for _, h in groups[s]] for s in srcs[b:b + batch]]
    scores = fastchrf.pairwise_chrf(hyps, hyps)
    for s, m in zip(srcs[b:b + batch], scores):
        u = np.mean(np.array(m), axis=1)
        i = int(np.argmax(u))
        out.append((s, groups[s][i][0], float(u[i])))
sec = time.perf_counter() - t0
print(json.dumps({"seconds": sec, "picks": out}))
"""


def make(path, sources, k, seed):
    import pyarrow as pa, pyarrow.parquet as pq
    rng = random.Random(seed)
    sents = load_sentences()
    vocab = sorted({w for s in sents[:4000] for w in s.split()})[:3000]
    src, cand, hyp = [], [], []
    for s in range(sources):
        base = rng.choice(sents).split()
        for c in range(k):
            src.append(s)
            cand.append(c)
            hyp.append(" ".join(perturb(rng, base, vocab)))
    pq.write_table(pa.table({"src_id": src, "cand": cand, "hyp": hyp}), path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="1000x64,200x256,16x1024", help="SOURCESxCANDIDATES, comma-separated")
    ap.add_argument("--batch", type=int, default=64, help="sources per fastchrf call")
    ap.add_argument("--seed", type=int, default=7)
    add_tool_args(ap)
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(args.python))
    tmp = tempfile.mkdtemp(prefix="mteval-mbr-")
    import json
    print(f"{'sources x K':>12} {'rows':>8} {'pairs':>12} {'fastchrf s':>11} {'mteval s':>9} {'speed-up':>9} identical")
    ok = True
    for shape in args.shapes.split(","):
        sources, k = map(int, shape.split("x"))
        inp, outp = os.path.join(tmp, f"{shape}.parquet"), os.path.join(tmp, f"{shape}-sel.parquet")
        subprocess.run([args.python, "-c", f"import sys; sys.path.insert(0, {HERE!r}); import bench_mbr; "
                        f"bench_mbr.make({inp!r}, {sources}, {k}, {args.seed})"], check=True)
        fc = json.loads(subprocess.run([args.python, "-c", FASTCHRF, inp, str(args.batch)], capture_output=True,
                                       text=True, check=True).stdout)
        t0 = time.perf_counter()
        subprocess.run([args.mteval, "mbr", inp, "--group-by", "src_id", "-o", outp], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sec = time.perf_counter() - t0
        got = json.loads(subprocess.run([args.python, "-c", "import json, sys, pyarrow.parquet as pq; "
                                         "t = pq.read_table(sys.argv[1]).to_pydict(); "
                                         "print(json.dumps(list(zip(t['src_id'], t['cand'], t['utility']))))", outp],
                                        capture_output=True, text=True, check=True).stdout)
        same = [tuple(x) for x in got] == [tuple(x) for x in fc["picks"]]
        ok &= same
        print(f"{shape:>12} {sources * k:8d} {sources * k * k:12d} {fc['seconds']:11.2f} {sec:9.2f} "
              f"{fc['seconds'] / sec:8.1f}x {same}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
