#!/usr/bin/env python3
"""Whole-process sentence-level TER: mteval vs sacrebleu 2.6.0 on the same rows.

Takes the shared WMT rows (all 5 pairs x 3 systems, 7,500 rows) repeated to
--rows rows, writes them as line-aligned text files and as Parquet, then times
(process start included):
  * sacrebleu: a fresh Python process computing TER().sentence_score per line;
  * mteval text mode: `mteval score --hyp H --ref R --sentence`;
  * mteval table mode: `mteval score rows.parquet -m ter -o scored.parquet`.
Checks that every sentence score is identical (within 1e-9) and prints the ratios.

Usage: python3 scripts/bench_ter.py [--rows 10000] [--mteval target/release/mteval]
"""
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(ROOT, "..", "shared"))

SACREBLEU = r"""
import sys
from sacrebleu.metrics import TER
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
ter = TER()
with open(sys.argv[3], 'w') as out:
    for h, r in zip(hyps, refs):
        out.write(repr(ter.sentence_score(h, [r]).score) + '\n')
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10000)
    ap.add_argument("--mteval", default=os.path.join(ROOT, "target", "release", "mteval"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venvs/oracle/bin/python"))
    args = ap.parse_args()
    rows = []
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"]:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(l) for l in f]
    rows = (rows * (args.rows // len(rows) + 1))[: args.rows]
    # Newlines inside a segment would break line alignment; there are none in the sample.
    assert not any("\n" in r["hyp"] or "\n" in r["ref"] for r in rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-")
    hyp, ref, jl = (os.path.join(tmp, n) for n in ("hyp.txt", "ref.txt", "rows.jsonl"))
    with open(hyp, "w", encoding="utf-8") as h, open(ref, "w", encoding="utf-8") as r, open(jl, "w", encoding="utf-8") as j:
        for x in rows:
            h.write(x["hyp"] + "\n")
            r.write(x["ref"] + "\n")
            j.write(json.dumps({"hyp": x["hyp"], "ref": x["ref"], "system": x["system"]}, ensure_ascii=False) + "\n")
    pq = os.path.join(tmp, "rows.parquet")
    subprocess.run([args.mteval, "sql", "-c", f"SELECT * FROM '{jl}'", "-o", pq], check=True, capture_output=True)

    def timed(cmd, **kw):
        t = time.perf_counter()
        p = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
        return time.perf_counter() - t, p.stdout

    sb_out = os.path.join(tmp, "sacrebleu.txt")
    t_sb, _ = timed([args.python, "-c", SACREBLEU, hyp, ref, sb_out])
    t_txt, out = timed([args.mteval, "score", "--hyp", hyp, "--ref", ref, "--sentence", "-w", "17"])
    t_pq, _ = timed([args.mteval, "score", pq, "-m", "ter", "-o", os.path.join(tmp, "scored.parquet")])
    sb = [float(l) for l in open(sb_out)]
    mt = [float(l.split("\t")[1]) for l in out.splitlines() if "\t" in l]
    assert len(sb) == len(mt) == len(rows), (len(sb), len(mt))
    diff = max(abs(a - b) for a, b in zip(sb, mt))
    n = len(rows)
    print(f"rows: {n}  (shared WMT rows repeated; max |mteval - sacrebleu| over all sentence scores = {diff:.3g})")
    print(f"{'what':42s} {'seconds':>8s} {'rows/s':>10s} {'vs sacrebleu':>13s}")
    print(f"{'sacrebleu 2.6.0 TER sentence (python)':42s} {t_sb:8.2f} {n / t_sb:10.0f} {1:12.1f}x")
    print(f"{'mteval score --hyp/--ref --sentence':42s} {t_txt:8.2f} {n / t_txt:10.0f} {t_sb / t_txt:12.1f}x")
    print(f"{'mteval score rows.parquet -o scored.parquet':42s} {t_pq:8.2f} {n / t_pq:10.0f} {t_sb / t_pq:12.1f}x")
    sys.exit(0 if diff <= 1e-9 else 1)


if __name__ == "__main__":
    main()
