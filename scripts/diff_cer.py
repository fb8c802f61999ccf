#!/usr/bin/env python3
"""Differential test of mteval's CharacTER against cer 1.2.0 (through ../shared/oracle).

Random perturbed (hyp, ref) cases from the shared WMT sentences (the generator
of diff_ter.py: word drops, duplicates, substitutions, block moves near and
far, odd whitespace, CJK, repetitive word lists) plus short cases over a tiny
vocabulary (where cer's float drift shows up). Each case is scored by the
oracle (`oracle.py cer`) and by `mteval sql` with `charac_ter(hyp, ref,
'compat:cer')` (must agree within 1e-9, or both be the empty-reference case:
cer raises ZeroDivisionError, mteval gives the original's 1.0), and with the
default `compat:original` against an emulation of the original (cer with its
word distance computed as ed.cpp's float32 ratio); the cases where cer and the
original differ (cer's float drift) are counted.

Usage: python3 scripts/diff_cer.py [--n 4000] [--seed 1]
Needs the oracle venv; exits 1 on any compat:cer mismatch.
"""
import json, os, random, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ndjson, oracle_cmd, run, tool_args, write_jsonl  # noqa: E402
from diff_ter import make_cases  # noqa: E402


def tiny_cases(n, seed):
    rng = random.Random(seed * 7919)
    vocab = ["a", "bb", "ccc", "dddd", "the", "of", "e", "ff"]
    out = []
    for _ in range(n):
        h = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 8)))
        r = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 8)))
        out.append((h, r))
    return out


# The original rwth-i6 CharacTER (c4b25cb) differs from cer only in its
# word-level distance: ed.cpp returns errors / n as a C float. Emulated by
# running cer with that one function replaced.
ORIGINAL = r"""
import json, sys
import numpy as np, Levenshtein
import cer.cer as C
def lev(h, r, *, do_norm=False):
    d = Levenshtein.distance(h, r)
    if not do_norm:
        return d
    return float(np.float32(d) / np.float32(len(r))) if len(r) else float('inf') if d else float('nan')
C.calculate_levenshtein = lev
for line in sys.stdin:
    v = json.loads(line)
    print(json.dumps({"id": v["id"], "score": C.calculate_cer(v["hyp"].split(), v["ref"].split())}))
"""


def main():
    args = tool_args(n=4000, seed=1, exotic=(0.0, "fraction of cases with odd characters (diff_ter.EXOTIC)"))
    pairs = [(c["hyp"], c["refs"][0]) for c in make_cases(args.n, args.seed, args.exotic)] + tiny_cases(args.n, args.seed)
    tmp = tempfile.mkdtemp(prefix="mteval-diff-cer-")
    inp = os.path.join(tmp, "cases.jsonl")
    write_jsonl(inp, ({"id": k, "hyp": h, "ref": r} for k, (h, r) in enumerate(pairs)))
    want = {v["id"]: v for v in ndjson(run(oracle_cmd(args.python, "cer"), inp))}
    want_orig = {v["id"]: v["score"] for v in ndjson(run([args.python, "-c", ORIGINAL], inp))}
    out = os.path.join(tmp, "mteval.csv")
    sql = (f"SELECT id, charac_ter(hyp, ref, 'compat:cer') AS c, charac_ter(hyp, ref) AS o "
           f"FROM '{inp}' ORDER BY id")
    subprocess.run([args.mteval, "sql", "-c", sql, "-o", out], check=True, capture_output=True)
    import csv
    bad = drift = empty_ref = 0
    shown = 0
    with open(out, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            k = int(row["id"])
            w = want[k]
            c, o = float(row["c"]), float(row["o"])
            if "error" in w:
                ok = w["error"].startswith("ZeroDivisionError") and not pairs[k][1].split() and c == 1.0 == o
                empty_ref += 1
            else:
                # compat:cer = cer; the default = the float32 original.
                ok = abs(c - w["score"]) <= 1e-9 and abs(o - want_orig[k]) <= 1e-9
                drift += abs(o - w["score"]) > 1e-9
            if not ok:
                bad += 1
                if shown < 5:
                    shown += 1
                    print("MISMATCH", json.dumps({"hyp": pairs[k][0], "ref": pairs[k][1], "oracle": w, "mteval": c}, ensure_ascii=False))
    n = len(pairs)
    print(f"CharacTER: {n} cases ({empty_ref} empty references), mismatches: {bad} "
          f"(compat:cer vs cer 1.2.0, default vs the float32 original); the original differs from cer on {drift} (cer's float drift)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
