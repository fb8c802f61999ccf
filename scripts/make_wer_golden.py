#!/usr/bin/env python3
"""Writes tests/golden/wer.json: jiwer 4.0.0's WER family on the shared WMT sample.

For each pair (systems sorted by name, rows in seg_id order, references from the
first system's rows) and each option set (unit word/char x transform
default/standardize: jiwer's wer_default, cer_default, wer_standardize, and
wer_standardize with ReduceToListOfListOfChars), one case with, per system:
  corpus          jiwer.process_words / process_characters over the system's
                  sentences against `ref`: hits, substitutions, deletions,
                  insertions and wer, mer, wil, wip (floats, full precision);
  corpus_2refs    the same when each row's reference is the better of `ref`
                  and `ref2` (fewest S+D+I, the first on ties; mteval's rule for
                  several references, jiwer has none); a missing ref2 (en-ja)
                  leaves `ref` alone;
and for the case:
  sentence_digest sum mod 2**64 of (k + 1) * (H + S*2**16 + D*2**32 + I*2**48)
                  over every sentence k (systems in order, then seg_id order) of
                  process_words(ref, hyp) for that one sentence; a decimal string;
  sentence_count, sentence_first (the counts [H, S, D, I] of the first 5).
And "mbr": WER as an MBR utility over data/wmt/mbr_groups.jsonl (each group's
system outputs as candidates and pseudo-references), for jiwer.wer and
jiwer.cer, with and without each candidate as its own pseudo-reference: per
group the candidates' utilities, numpy.mean of jiwer.wer(reference=pseudo,
hypothesis=candidate) over the pseudo-references, and the pick (the lowest,
the first on ties).

Usage (an interpreter with jiwer==4.0.0):
    python scripts/make_wer_golden.py [--out tests/golden/wer.json] [--pairs en-de,de-en]
Data: $MTEVAL_SHARED_DIR/data/wmt (default ../shared). About a minute.
"""
import argparse, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, SHARED, WMT_PAIRS, load_pair  # noqa: E402

import jiwer  # noqa: E402
import jiwer.transforms as tr  # noqa: E402

CHAR_STANDARDIZE = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(),
                               tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip(),
                               tr.ReduceToListOfListOfChars()])
VARIANTS = {
    "": jiwer.wer_default,
    "unit:char": jiwer.cer_default,
    "transform:standardize": jiwer.wer_standardize,
    "unit:char|transform:standardize": CHAR_STANDARDIZE,
}
MASK = (1 << 64) - 1


def process(refs, hyps, transform):
    """process_words with the transform on both sides (process_characters is exactly this, with a character
    transform, keeping only cer = wer and the counts; the other measures are the same arithmetic)."""
    return jiwer.process_words(refs, hyps, reference_transform=transform, hypothesis_transform=transform)


def corpus(refs, hyps, transform):
    o = process(refs, hyps, transform)
    return {"hits": o.hits, "substitutions": o.substitutions, "deletions": o.deletions, "insertions": o.insertions,
            "wer": float(o.wer), "mer": float(o.mer), "wil": float(o.wil), "wip": float(o.wip)}


def mbr_cases():
    import numpy as np
    with open(os.path.join(SHARED, "data", "wmt", "mbr_groups.jsonl"), encoding="utf-8") as f:
        groups = [json.loads(line) for line in f]
    out = []
    for opts, measure in (("", jiwer.wer), ("unit:char", jiwer.cer)):
        for include_self in (True, False):
            case = {"options": opts, "self": include_self, "groups": []}
            for g in groups:
                hyps = g["hyps"]
                utilities = []
                for j, h in enumerate(hyps):
                    row = [measure(reference=r, hypothesis=h) for k, r in enumerate(hyps) if include_self or k != j]
                    utilities.append(float(np.mean(np.array(row, dtype=np.float64))))
                pick = min(range(len(hyps)), key=lambda j: (utilities[j], j))
                case["groups"].append({"pair": g["pair"], "seg_id": g["seg_id"],
                                       "utilities": utilities, "pick": pick})
            out.append(case)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "golden", "wer.json"))
    ap.add_argument("--pairs", default=",".join(WMT_PAIRS))
    a = ap.parse_args()
    from importlib.metadata import version
    if version("jiwer") != "4.0.0":
        sys.exit(f"jiwer {version('jiwer')} is not 4.0.0")
    t0 = time.time()
    cases = []
    for pair in a.pairs.split(","):
        systems, hyps, refs, refs2 = load_pair(pair)
        for opts, transform in VARIANTS.items():
            digest, count, first = 0, 0, []
            case = {"pair": pair, "options": opts, "systems": systems, "corpus": [], "corpus_2refs": []}
            for name in systems:
                hs = hyps[name]
                case["corpus"].append(corpus(refs, hs, transform))
                best = []
                for h, r1, r2 in zip(hs, refs, refs2):
                    if r2 is None:
                        best.append(r1)
                        continue
                    e = [sum((o.substitutions, o.deletions, o.insertions))
                         for o in (process(r, h, transform) for r in (r1, r2))]
                    best.append(r2 if e[1] < e[0] else r1)
                case["corpus_2refs"].append(corpus(best, hs, transform))
                for h, r in zip(hs, refs):
                    o = process(r, h, transform)
                    c = [o.hits, o.substitutions, o.deletions, o.insertions]
                    if len(first) < 5:
                        first.append(c)
                    count += 1
                    digest = (digest + count * (c[0] + (c[1] << 16) + (c[2] << 32) + (c[3] << 48))) & MASK
            case.update({"sentence_digest": str(digest), "sentence_count": count, "sentence_first": first})
            cases.append(case)
            print(f"{pair} {opts or 'default'}: {count} sentences ({time.time() - t0:.0f} s)", file=sys.stderr)
    doc = {"tool": "jiwer 4.0.0", "made_by": "scripts/make_wer_golden.py", "cases": cases, "mbr": mbr_cases()}
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
