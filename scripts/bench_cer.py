#!/usr/bin/env python3
"""CharacTER benchmark against cer 1.2.0, same rows, same machine.

Whole-process sentence CharacTER (process start included) on --rows rows (the
shared WMT rows repeated): cer's `calculate_cer(hyp.split(), ref.split())` in a
fresh Python process vs `mteval score --hyp/--ref -m characTER --sentence
--options compat:cer` and `mteval score rows.parquet -m characTER -o ...`;
every sentence score must agree (1e-9; compat:cer reproduces cer's arithmetic).

Usage: python3 scripts/bench_cer.py [--rows 30000]
Needs the oracle venv (cer, Levenshtein).
"""
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(ROOT, "..", "shared"))

CER = r"""
import sys
from cer import calculate_cer
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
with open(sys.argv[3], 'w') as out:
    for h, r in zip(hyps, refs):
        out.write(repr(calculate_cer(h.split(), r.split())) + '\n')
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=30000)
    ap.add_argument("--mteval", default=os.path.join(ROOT, "target", "release", "mteval"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venvs/oracle/bin/python"))
    args = ap.parse_args()
    rows = []
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"]:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(l) for l in f]
    # cer raises on an empty reference; the shared rows have none.
    rows = [r for r in rows if r["ref"].split()]
    rows = (rows * (args.rows // len(rows) + 1))[: args.rows]
    tmp = tempfile.mkdtemp(prefix="mteval-bench-cer-")
    hyp, ref, jl = (os.path.join(tmp, n) for n in ("hyp.txt", "ref.txt", "rows.jsonl"))
    with open(hyp, "w", encoding="utf-8") as h, open(ref, "w", encoding="utf-8") as r, open(jl, "w", encoding="utf-8") as j:
        for x in rows:
            h.write(x["hyp"] + "\n")
            r.write(x["ref"] + "\n")
            j.write(json.dumps({"hyp": x["hyp"], "ref": x["ref"], "system": x["system"]}, ensure_ascii=False) + "\n")
    pq = os.path.join(tmp, "rows.parquet")
    subprocess.run([args.mteval, "sql", "-c", f"SELECT * FROM '{jl}'", "-o", pq], check=True, capture_output=True)

    def timed(cmd):
        t = time.perf_counter()
        p = subprocess.run(cmd, check=True, capture_output=True, text=True)
        return time.perf_counter() - t, p.stdout

    cer_out = os.path.join(tmp, "cer.txt")
    t_cer, _ = timed([args.python, "-c", CER, hyp, ref, cer_out])
    base = [args.mteval, "score", "-m", "characTER", "--options", "compat:cer"]
    t_txt, out = timed(base[:2] + ["--hyp", hyp, "--ref", ref] + base[2:] + ["--sentence", "-w", "17"])
    t_pq, _ = timed([args.mteval, "score", pq, "-m", "characTER", "-o", os.path.join(tmp, "scored.parquet")])
    ref_scores = [float(l) for l in open(cer_out)]
    mt = [float(l.split("\t")[1]) for l in out.splitlines() if "\t" in l]
    assert len(ref_scores) == len(mt) == len(rows), (len(ref_scores), len(mt))
    diff = max(abs(a - b) for a, b in zip(ref_scores, mt))
    n = len(rows)
    print(f"sentence CharacTER, rows: {n} (shared WMT rows repeated; max |mteval - cer| = {diff:.3g})")
    print(f"{'what':52s} {'seconds':>8s} {'rows/s':>10s} {'vs cer':>9s}")
    print(f"{'cer 1.2.0 calculate_cer (python)':52s} {t_cer:8.2f} {n / t_cer:10.0f} {1:8.1f}x")
    print(f"{'mteval score --hyp/--ref -m characTER --sentence':52s} {t_txt:8.2f} {n / t_txt:10.0f} {t_cer / t_txt:8.1f}x")
    print(f"{'mteval score rows.parquet -m characTER -o ...':52s} {t_pq:8.2f} {n / t_pq:10.0f} {t_cer / t_pq:8.1f}x")
    sys.exit(0 if diff <= 1e-9 else 1)


if __name__ == "__main__":
    main()
