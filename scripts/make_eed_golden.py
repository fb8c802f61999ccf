#!/usr/bin/env python3
"""Writes tests/golden/eed.json: EED as rwth-i6/ExtendedEditDistance's EED.py scores it.

The reference is a checkout of https://github.com/rwth-i6/ExtendedEditDistance at f944adc (nothing of it is
copied here): EED.py's `eed` (its shipped C++ library libEED.so, what `python3 EED.py` prints) and its Python
function `eed_python`, each on both sides preprocessed by `util.preprocess(line, PREP)` and split into characters,
exactly as EED.py's main() does. Cases:
  random   hypothesis/reference pairs built from a small alphabet with the characters its rules touch
           (punctuation, digits, titles, Unicode blanks and decimals, CJK), random or one a mutation of the other;
           each with its preprocessing ("en" or "ja") and both scores;
  wmt      per pair of the shared WMT sample, the first two systems (by name) and their first ROWS rows in seg_id
           order, against `ref`: both scores per row, "en" preprocessing.

Usage:
    git clone https://github.com/rwth-i6/ExtendedEditDistance /tmp/eed && git -C /tmp/eed checkout f944adc
    python3 scripts/make_eed_golden.py --eed /tmp/eed [--out tests/golden/eed.json] [--cases 1500] [--rows 150]
"""
import argparse, json, os, random, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, SHARED, WMT_PAIRS  # noqa: E402

ALPHABET = list("aab bc dd e  ") + list(".,!?") + list("0123") + ["Mr ", "Mrs ", "Dr ", "Prof ", "U.S.", "e.g. ",
                                                                    "i.e. ", "\u00a0", "\t", "\u001c", "\u3000",
                                                                    "\u0663", "\u00e9", "\u732b", "\uff21", " . "]


def build(rng):
    n = rng.randrange(0, 40)
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def mutate(rng, s):
    chars = list(s)
    for _ in range(rng.randrange(0, 6)):
        op = rng.randrange(3)
        k = rng.randrange(len(chars) + 1)
        if op == 0:
            chars.insert(k, rng.choice(ALPHABET))
        elif chars and k < len(chars):
            if op == 1:
                del chars[k]
            else:
                chars[k] = rng.choice(ALPHABET)
    return "".join(chars)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eed", required=True, help="a checkout of rwth-i6/ExtendedEditDistance (f944adc)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "golden", "eed.json"))
    ap.add_argument("--cases", type=int, default=1500)
    ap.add_argument("--rows", type=int, default=150)
    ap.add_argument("--seed", type=int, default=2019)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.eed))
    import EED  # noqa: E402
    import util  # noqa: E402

    def scores(hyp, ref, prep):
        h, r = util.preprocess(hyp, prep), util.preprocess(ref, prep)
        return EED.eed(list(h), list(r)), min(1, EED.eed_python(list(h), list(r)))

    rng = random.Random(args.seed)
    random_cases = []
    for k in range(args.cases):
        hyp = build(rng)
        ref = mutate(rng, hyp) if k % 2 else build(rng)
        prep = "ja" if k % 8 == 7 else "en"
        e, p = scores(hyp, ref, prep)
        random_cases.append({"hyp": hyp, "ref": ref, "prep": prep, "eed": e, "python": p})
    wmt = []
    for pair in WMT_PAIRS:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows = [json.loads(line) for line in f]
        for system in sorted({r["system"] for r in rows})[:2]:
            mine = sorted((r for r in rows if r["system"] == system), key=lambda r: r["seg_id"])[:args.rows]
            got = [scores(r["hyp"], r["ref"], "en") for r in mine]
            wmt.append({"pair": pair, "system": system, "seg_ids": [r["seg_id"] for r in mine],
                        "eed": [g[0] for g in got], "python": [g[1] for g in got]})
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"reference": "rwth-i6/ExtendedEditDistance f944adc, EED.py (eed: libEED.so; python: eed_python)",
                   "random": random_cases, "wmt": wmt}, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"wrote {args.out}: {len(random_cases)} random cases, {sum(len(w['eed']) for w in wmt)} WMT rows")


if __name__ == "__main__":
    main()
