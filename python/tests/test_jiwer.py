"""`mteval.jiwer` against jiwer 4.0.0 itself: every function, every preset, on the shared WMT rows and on
random sentences built for ties, odd whitespace, contractions and Kaldi non-words; outputs compared field by
field (tokens, chunks, counts, measures bit for bit) and visualize_alignment's text character for character.
jiwer's own tests run against mteval.jiwer from jiwer's source distribution (scripts/test-python.sh)."""
import json
import os
import random

import jiwer as ref
import pytest

from mteval import jiwer as mj

SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
PRESETS = ["wer_default", "wer_standardize", "cer_default", "wer_contiguous", "cer_contiguous"]


def same(a, b):
    """Two jiwer outputs (or values) equal: the same types of numbers and the same bits."""
    if hasattr(a, "__dataclass_fields__"):
        assert type(a).__name__ == type(b).__name__
        for f in a.__dataclass_fields__:
            same(getattr(a, f), getattr(b, f))
        return
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    assert type(a) is type(b) and a == b, (a, b)


def both(fn, refs, hyps, preset, **kw):
    kw_ref = {} if preset is None else {"reference_transform": getattr(ref, preset), "hypothesis_transform": getattr(ref, preset)}
    kw_mj = {} if preset is None else {"reference_transform": getattr(mj, preset), "hypothesis_transform": getattr(mj, preset)}
    return getattr(ref, fn)(refs, hyps, **kw_ref, **kw), getattr(mj, fn)(refs, hyps, **kw_mj, **kw)


def wmt_rows():
    rows = []
    for pair in ["en-de", "zh-en", "en-ja"]:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(line) for line in f][:400]
    return rows


@pytest.mark.parametrize("preset", PRESETS)
def test_process_words_on_wmt_rows(preset):
    rows = wmt_rows()
    refs, hyps = [r["ref"] for r in rows], [r["hyp"] for r in rows]
    fn = "process_characters" if preset.startswith("cer") else "process_words"
    a, b = both(fn, refs, hyps, preset)
    assert a.references == b.references and a.hypotheses == b.hypotheses
    for x, y in zip(a.alignments, b.alignments):
        assert [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in x] == \
               [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in y]
    fields = ["cer"] if fn == "process_characters" else ["wer", "mer", "wil", "wip"]
    for f in fields + ["hits", "substitutions", "deletions", "insertions"]:
        same(getattr(a, f), getattr(b, f))
    for sm, sc, lw in [(True, True, None), (False, False, 40)]:
        assert ref.visualize_alignment(a, sm, sc, lw) == mj.visualize_alignment(b, sm, sc, lw)


WORDS = ["a", "b", "the", "cat", "don't", "it's", "I'M", "[noise]", "<unk>", "ΟΔΟΣ", "東京", "*", "x"]
SEPS = [" "] * 12 + ["  ", "\t", "\u00a0", "\u3000", "\n", " \t "]


def sentence(rng):
    n = rng.choice([0, 1, 2, 4, 8, 16])
    out = ""
    for i in range(n):
        if i:
            out += rng.choice(SEPS)
        out += rng.choice(WORDS[: rng.choice([2, 4, len(WORDS)])])
    if rng.random() < 0.2:
        out = rng.choice(SEPS) + out + rng.choice(SEPS)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_every_function_on_random_sentences(seed):
    rng = random.Random(seed)
    for _ in range(150):
        k = rng.choice([1, 1, 2, 5])
        refs, hyps = [sentence(rng) for _ in range(k)], [sentence(rng) for _ in range(k)]
        if k == 1 and rng.random() < 0.5:
            refs, hyps = refs[0], hyps[0]
        for fn in ["wer", "mer", "wil", "wip"]:
            for preset in [None, "wer_default", "wer_standardize", "wer_contiguous"]:
                a, b = both(fn, refs, hyps, preset)
                same(a, b)
        for preset in [None, "cer_default", "cer_contiguous"]:
            a, b = both("cer", refs, hyps, preset)
            same(a, b)
        a, b = both("process_words", refs, hyps, None)
        for f in ["references", "hypotheses", "wer", "mer", "wil", "wip", "hits", "substitutions", "deletions",
                  "insertions"]:
            same(getattr(a, f), getattr(b, f))
        assert ref.visualize_alignment(a, skip_correct=False) == mj.visualize_alignment(b, skip_correct=False)


def test_lengths_and_transforms_are_checked():
    with pytest.raises(ValueError, match="lengths must match"):
        mj.wer(["a", "b"], ["a"])
    # Any transform is honoured: jiwer's own Compose objects, different ones on the two sides.
    same(mj.wer("A b.", "a B", reference_transform=ref.wer_standardize, hypothesis_transform=ref.wer_default),
         ref.wer("A b.", "a B", reference_transform=ref.wer_standardize, hypothesis_transform=ref.wer_default))
    same(mj.wer("A b", "a B", reference_transform=mj.wer_default, hypothesis_transform=mj.wer_standardize),
         ref.wer("A b", "a B", reference_transform=ref.wer_default, hypothesis_transform=ref.wer_standardize))
    # jiwer's own error for an item that is no string (its first transform's, here re.sub's).
    with pytest.raises(TypeError, match="^expected string or bytes-like object, got 'int'$"):
        mj.wer(["a", 3], ["a", "b"])
    with pytest.raises(TypeError, match="^expected string or bytes-like object, got 'int'$"):
        ref.wer(["a", 3], ["a", "b"])
