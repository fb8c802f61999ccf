#!/usr/bin/env python3
"""mteval.jiwer against jiwer 4.0.0 with transforms, same calls, same data, same process: `wer`,
`process_words` and `visualize_error_counts` with a typical Compose (lower-case, remove punctuation, collapse
spaces, strip, reduce to words) on both sides, and with `wer_standardize`; then Whisper's BasicTextNormalizer and
EnglishTextNormalizer (whisper-normalizer 0.1.15, one call per text) against mteval.normalizers' (one call on the
list), and WER after the English normaliser. Checks the
results are equal, prints seconds and ratios.

Data: the shared WMT rows (hypothesis and reference, 5 pairs x 3 systems), repeated to --rows pairs.

Usage (the venv of scripts/test-python.sh, which has the wheel and jiwer):
    target/pyvenv/bin/python scripts/bench_jiwer.py [--rows 100000] [--repeats 3]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import best_call, load_wmt_rows, options  # noqa: E402


def main():
    args = options(repeats=3, rows=(100_000, "sentence pairs")).parse_args()
    import jiwer
    from mteval import jiwer as mj
    rows = load_wmt_rows()
    rows = (rows * (args.rows // len(rows) + 1))[: args.rows]
    refs, hyps = [r["ref"] for r in rows], [r["hyp"] for r in rows]

    def typical(m):
        return m.Compose([m.ToLowerCase(), m.RemovePunctuation(), m.RemoveMultipleSpaces(), m.Strip(),
                          m.ReduceToListOfListOfWords()])

    cases = [
        (f"wer, typical Compose, {len(rows):,} pairs", lambda m: m.wer(refs, hyps, typical(m), typical(m))),
        (f"process_words, typical Compose, {len(rows):,} pairs",
         lambda m: m.process_words(refs, hyps, typical(m), typical(m))),
        (f"wer, wer_standardize, {len(rows):,} pairs",
         lambda m: m.wer(refs, hyps, m.wer_standardize, m.wer_standardize)),
        (f"visualize_error_counts, typical Compose, {len(rows):,} pairs",
         lambda m: m.visualize_error_counts(m.process_words(refs, hyps, typical(m), typical(m)))),
    ]
    from mteval.normalizers import BasicTextNormalizer
    from whisper_normalizer.basic import BasicTextNormalizer as TheirBasic
    texts = refs + hyps
    whisper = {jiwer: TheirBasic(), mj: BasicTextNormalizer()}
    cases.append((f"BasicTextNormalizer, {len(texts):,} texts",
                  lambda m: [whisper[m](t) for t in texts] if m is jiwer else whisper[m](texts)))
    from mteval.normalizers import EnglishTextNormalizer
    from whisper_normalizer.english import EnglishTextNormalizer as TheirEnglish
    english = {jiwer: TheirEnglish(), mj: EnglishTextNormalizer()}
    cases.append((f"EnglishTextNormalizer, {len(texts):,} texts",
                  lambda m: [english[m](t) for t in texts] if m is jiwer else english[m](texts)))

    def asr(m):
        # What an ASR evaluation runs: Whisper's English normaliser on both sides, then WER. With jiwer the
        # normaliser is called per text first (it takes one string); mteval's stands in the Compose.
        if m is jiwer:
            return jiwer.wer([english[m](t) for t in refs], [english[m](t) for t in hyps])
        c = mj.Compose([EnglishTextNormalizer(), mj.RemoveMultipleSpaces(), mj.Strip(),
                        mj.ReduceToListOfListOfWords()])
        return mj.wer(refs, hyps, reference_transform=c, hypothesis_transform=c)
    cases.append((f"wer after EnglishTextNormalizer, {len(rows):,} pairs", asr))
    print(f"{'case':<58} {'peer s':>9} {'mteval s':>9} {'ratio':>7}")
    for name, f in cases:
        t_ref, a = best_call(lambda: f(jiwer), args.repeats)
        t_ours, b = best_call(lambda: f(mj), args.repeats)
        # Outputs compared outside the timings (jiwer's and mteval's classes differ, their fields must not).
        assert (repr(a) if hasattr(a, "wer") else a) == (repr(b) if hasattr(b, "wer") else b), name
        print(f"{name:<58} {t_ref:9.3f} {t_ours:9.3f} {t_ref / t_ours:6.1f}x", flush=True)


if __name__ == "__main__":
    main()
