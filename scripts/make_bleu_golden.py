#!/usr/bin/env python3
"""Writes tests/golden/bleu.json: sacrebleu 2.6.0's BLEU on the shared WMT sample.

For each pair (systems sorted by name, rows in seg_id order, references from the
first system's rows) and each option set (tokenize x smooth_method, plus a few
extras), one case with:
  corpus          corpus BLEU per system, one reference (`ref`), effective_order off;
  corpus_2refs    the same against [ref, ref2] (en-ja has no ref2: its None
                  references are dropped by sacrebleu, so this equals corpus);
  sentence_digest sum mod 2**64 of the IEEE-754 bit patterns of every sentence BLEU
                  (BLEU(**options, effective_order=True).sentence_score(hyp, [ref])),
                  systems in order, then seg_id order; a decimal string;
  sentence_count, sentence_first (the first 5 sentence scores, for debugging);
  signature       BLEU(**options).get_signature().format() after the 1-reference
                  corpus score.

Usage (an interpreter with sacrebleu 2.6.0, e.g. the oracle venv):
    python scripts/make_bleu_golden.py [--out tests/golden/bleu.json] [--pairs en-de,de-en]
Data: $MTEVAL_SHARED_DIR/data/wmt (default ../shared). About 1-2 minutes.
"""
import argparse, json, os, struct, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, WMT_PAIRS, load_pair  # noqa: E402

import sacrebleu  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402

TOKENIZERS = ["13a", "none", "char", "zh", "intl"]
SMOOTHS = ["exp", "none", "floor", "add-k"]
EXTRAS = [
    {"tokenize": "13a", "smooth_method": "exp", "lowercase": True},
    {"tokenize": "13a", "smooth_method": "exp", "max_ngram_order": 2},
    {"tokenize": "13a", "smooth_method": "floor", "smooth_value": 0.25},
    {"tokenize": "13a", "smooth_method": "add-k", "smooth_value": 0.5},
    {"trg_lang": "zh"},
]
OPTION_SETS = [{"tokenize": t, "smooth_method": s} for t in TOKENIZERS for s in SMOOTHS] + EXTRAS


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def case(pair, systems, hyps, refs, refs2, opts):
    bleu = BLEU(**opts)
    corpus = [bleu.corpus_score(hyps[s], [refs]).score for s in systems]
    signature = bleu.get_signature().format()
    corpus2 = [BLEU(**opts).corpus_score(hyps[s], [refs, refs2]).score for s in systems]
    sent = BLEU(**opts, effective_order=True)
    scores = [sent.sentence_score(h, [r]).score for s in systems for h, r in zip(hyps[s], refs)]
    digest = sum(bits(x) for x in scores) % 2**64
    return {"pair": pair, "systems": systems, "options": opts, "corpus": corpus, "corpus_2refs": corpus2,
            "sentence_digest": str(digest), "sentence_count": len(scores), "sentence_first": scores[:5],
            "signature": signature}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "golden", "bleu.json"))
    ap.add_argument("--pairs", default=",".join(WMT_PAIRS))
    args = ap.parse_args()
    assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
    t0 = time.time()
    cases = []
    for pair in args.pairs.split(","):
        systems, hyps, refs, refs2 = load_pair(pair)
        for opts in OPTION_SETS:
            cases.append(case(pair, systems, hyps, refs, refs2, opts))
        print(f"{pair}: {len(OPTION_SETS)} option sets, {time.time() - t0:.1f}s", file=sys.stderr)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"sacrebleu": sacrebleu.__version__, "cases": cases}, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.out}: {len(cases)} cases in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
