#!/usr/bin/env python3
"""The Python API against the tools it replaces, same calls, same data, same process: sacrebleu 2.6.0's
BLEU / chrF / TER corpus_score, fastchrf 0.2.1's pairwise_chrf and cer 1.2.0's calculate_cer_corpus, each
next to mteval's call with the same arguments. Checks the numbers are equal, prints seconds and ratios.

Data: the shared WMT rows (all 5 pairs x 3 systems, 7,500 rows; TER on the first --ter-rows of them, as
sacrebleu's TER runs at about 200 rows/s), for pairwise chrF the shared MBR groups' hypotheses and
MBR-sized groups (--mbr-groups x --mbr-n consecutive WMT hypotheses, every sample against every sample).

Usage (the venv of scripts/test-python.sh, which has the wheel and the tools):
    target/pyvenv/bin/python scripts/bench_python.py [--repeats 3] [--ter-rows 2000] [--mbr-n 256] [--mbr-groups 8]
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHARED, best_call, load_wmt_rows, options  # noqa: E402


def main():
    args = options(repeats=3, ter_rows=2000, mbr_n=(256, "samples per source of the large pairwise case"),
                   mbr_groups=(8, "sources of the large pairwise case")).parse_args()
    import cer, fastchrf, mteval
    from sacrebleu.metrics import BLEU, CHRF, TER
    rows = load_wmt_rows()
    hyps, refs = [r["hyp"] for r in rows], [[r["ref"] for r in rows], [r["ref2"] for r in rows]]
    th, tr = hyps[: args.ter_rows], [s[: args.ter_rows] for s in refs]
    groups = []
    with open(os.path.join(SHARED, "data", "wmt", "mbr_groups.jsonl"), encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            groups.append(g.get("hyps") or g.get("candidates"))
    groups = [g for g in groups if g][:100]
    # MBR-sized: --mbr-groups sources x --mbr-n samples, the samples being consecutive WMT hypotheses
    n = args.mbr_n
    big = [hyps[i * n:(i + 1) * n] for i in range(min(args.mbr_groups, len(hyps) // n))]
    cases = [
        ("BLEU().corpus_score, 7,500 rows, 2 refs", lambda: BLEU().corpus_score(hyps, refs).score,
         lambda: mteval.BLEU().corpus_score(hyps, refs).score),
        ("CHRF(word_order=2).corpus_score, 7,500 rows, 2 refs", lambda: CHRF(word_order=2).corpus_score(hyps, refs).score,
         lambda: mteval.CHRF(word_order=2).corpus_score(hyps, refs).score),
        (f"TER().corpus_score, {len(th):,} rows, 2 refs", lambda: TER().corpus_score(th, tr).score,
         lambda: mteval.TER().corpus_score(th, tr).score),
        (f"pairwise_chrf, {len(groups)} MBR groups (self)", lambda: fastchrf.pairwise_chrf(groups, groups),
         lambda: mteval.pairwise_chrf(groups, groups)),
        (f"pairwise_chrf, {len(big)} groups x {n}x{n}", lambda: fastchrf.pairwise_chrf(big, big),
         lambda: mteval.pairwise_chrf(big, big)),
        (f"aggregate_chrf, {len(big)} groups x {n}x{n}", lambda: fastchrf.aggregate_chrf(big, big),
         lambda: mteval.aggregate_chrf(big, big)),
        ("calculate_cer_corpus, 7,500 rows", lambda: cer.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in refs[0]]),
         lambda: mteval.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in refs[0]])),
    ]
    print(f"{'call':55s} {'tool s':>9s} {'mteval s':>9s} {'ratio':>8s}")
    bad = 0
    for name, theirs, ours in cases:
        t1, a = best_call(theirs, 1 if "TER" in name else args.repeats)
        t2, b = best_call(ours, args.repeats)
        same = a == b
        bad += not same
        print(f"{name:55s} {t1:9.3f} {t2:9.3f} {t1 / t2:7.1f}x{'' if same else '  DIFFERENT'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
