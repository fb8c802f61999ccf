"""`mteval.jiwer`'s transform classes, Composes and error counts against jiwer 4.0.0 itself: every class on
random Unicode text (non-ASCII punctuation, right-to-left scripts, combining marks, odd whitespace, special
casing), the Rust steps over every code point, Composes mixing jiwer's classes with any Python callable, and
`collect_error_counts` / `visualize_error_counts` on the shared WMT rows."""
import json
import os
import random
import sys

import jiwer as ref
import pytest

from mteval import jiwer as mj
from mteval.jiwer.transforms import native_program

SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))

PIECES = ["a", "b", "the", "Cat", "DON'T", "it's", "won't", "you're", "I'M", "[noise]", "<unk>", "<a b>", "ΣΑΣ",
          "straße", "İstanbul", "ǅ", "東京。", "¡Hola!", "«ça»", "—", "x_y", "$5", "+", "שלום", "עולם,", "مرحبا،",
          "؟", "cafe\u0301", "café", "n\u0303", "\u0301", "foo", "foobar", "a.b", "1,000", "\u00bd", "ℌ", "ﬁ", "''",
          "'s", "'re", "\u200b", "\u0130", "ǈ"]
SPACES = [" "] * 10 + ["  ", "\t", "\n", "\u00a0", "\u3000", "\u1680", "\u001c", "\x0b", " \t "]


def text(rng, n=None):
    n = rng.choice([0, 1, 2, 3, 6, 12]) if n is None else n
    out = ""
    for i in range(n):
        if i:
            out += rng.choice(SPACES)
        out += rng.choice(PIECES)
    if rng.random() < 0.3:
        out = rng.choice(SPACES) + out + rng.choice(SPACES)
    return out


def classes(rng):
    """Pairs of equal transforms: (jiwer's, mteval's), with random parameters."""
    words = rng.sample(["the", "a", "foo", "'re", "Cat", "שלום", "cafe", "you", "ab", "x_y", "东京", "$5"], 3)
    mapping = {w: rng.choice(["", " ", "X", "ő", "a b"]) for w in words}
    delim = rng.choice([" ", " ", "_", "ab", "\t"])
    return [
        (ref.ToLowerCase(), mj.ToLowerCase()),
        (ref.ToUpperCase(), mj.ToUpperCase()),
        (ref.RemovePunctuation(), mj.RemovePunctuation()),
        (ref.RemoveMultipleSpaces(), mj.RemoveMultipleSpaces()),
        (ref.RemoveWhiteSpace(), mj.RemoveWhiteSpace()),
        (ref.RemoveWhiteSpace(replace_by_space=True), mj.RemoveWhiteSpace(replace_by_space=True)),
        (ref.Strip(), mj.Strip()),
        (ref.RemoveEmptyStrings(), mj.RemoveEmptyStrings()),
        (ref.RemoveKaldiNonWords(), mj.RemoveKaldiNonWords()),
        (ref.ExpandCommonEnglishContractions(), mj.ExpandCommonEnglishContractions()),
        (ref.SubstituteWords(mapping), mj.SubstituteWords(mapping)),
        (ref.RemoveSpecificWords(words), mj.RemoveSpecificWords(words)),
        (ref.SubstituteRegexes({r"\b(\w+)ed\b": r"\1", "o+": "0"}), mj.SubstituteRegexes({r"\b(\w+)ed\b": r"\1",
                                                                                          "o+": "0"})),
        (ref.ReduceToSingleSentence(delim), mj.ReduceToSingleSentence(delim)),
        (ref.ReduceToListOfListOfWords(delim), mj.ReduceToListOfListOfWords(delim)),
        (ref.ReduceToListOfListOfChars(), mj.ReduceToListOfListOfChars()),
    ]


def outcome(f):
    try:
        out = f()
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return "raises", type(e).__name__, str(e)
    return "returns", out


@pytest.mark.parametrize("seed", range(4))
def test_every_class_and_random_composes_as_jiwer(seed):
    rng = random.Random(seed)
    for _ in range(150):
        pairs = classes(rng)
        inp = text(rng) if rng.random() < 0.3 else [text(rng) for _ in range(rng.choice([0, 1, 3, 6]))]
        for theirs, ours in pairs:
            # The class alone (Python), and as a one-step Compose (Rust where it runs there).
            assert outcome(lambda: ours(inp)) == outcome(lambda: theirs(inp)), (theirs, inp)
            assert outcome(lambda: mj.Compose([ours])(inp)) == outcome(lambda: ref.Compose([theirs])(inp)), \
                (theirs, inp)
        # A random chain of up to 6 classes (reductions anywhere: after one, jiwer raises or passes, and so do we).
        k = rng.choice([1, 2, 4, 6])
        chain = [rng.choice(pairs) for _ in range(k)]
        a = outcome(lambda: ref.Compose([t for t, _ in chain])(inp))
        b = outcome(lambda: mj.Compose([o for _, o in chain])(inp))
        assert a == b, ([t for t, _ in chain], inp)


def test_the_rust_steps_equal_python_on_every_code_point():
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    assert native_program(mj.Compose([mj.ToLowerCase()])) is not None
    assert mj.Compose([mj.ToLowerCase()])(chars) == [c.lower() for c in chars]
    assert mj.Compose([mj.ToUpperCase()])(chars) == [c.upper() for c in chars]
    assert mj.Compose([mj.RemovePunctuation()])(chars) == ref.RemovePunctuation()(chars)
    assert mj.Compose([mj.Strip()])(chars) == [c.strip() for c in chars]
    assert mj.Compose([mj.RemoveMultipleSpaces()])([c + c for c in chars]) == \
        ref.RemoveMultipleSpaces()([c + c for c in chars])
    # `\b` around every character: "a" + c + "a" with the word "a", and c alone between spaces.
    sub = {"a": "X"}
    probe = [c + "a" + c for c in chars]
    assert mj.Compose([mj.SubstituteWords(sub)])(probe) == ref.SubstituteWords(sub)(probe)


def test_wmt_rows_with_a_typical_compose_and_error_counts():
    rows = []
    for pair in ["en-de", "zh-en", "en-ja"]:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(line) for line in f][:300]
    refs, hyps = [r["ref"] for r in rows], [r["hyp"] for r in rows]

    def typical(m):
        return m.Compose([m.ToLowerCase(), m.RemovePunctuation(), m.RemoveMultipleSpaces(), m.Strip(),
                          m.ReduceToListOfListOfWords()])
    assert native_program(typical(mj)) is not None
    a = ref.process_words(refs, hyps, typical(ref), typical(ref))
    b = mj.process_words(refs, hyps, typical(mj), typical(mj))
    assert repr(a) == repr(b)
    for m in ["wer", "mer", "wil", "wip"]:
        assert getattr(mj, m)(refs, hyps, typical(mj), typical(mj)) == getattr(a, m)
    c, d = ref.process_characters(refs, hyps), mj.process_characters(refs, hyps)
    for x, y in [(a, b), (c, d)]:
        assert [dict(e) for e in ref.collect_error_counts(x)] == [dict(e) for e in mj.collect_error_counts(y)]
        for kw in [{}, {"top_k": 3}, {"show_insertions": False}, {"show_substitutions": False, "top_k": 1}]:
            assert ref.visualize_error_counts(x, **kw) == mj.visualize_error_counts(y, **kw)


def test_error_counts_keep_multi_word_errors_apart():
    out = mj.process_words(["can't meeting today", "a b c d"], ["door cat today", "a x y d"])
    s, i, d = mj.collect_error_counts(out)
    assert dict(s) == {("can't meeting", "door cat"): 1, ("b c", "x y"): 1}
    assert (dict(i), dict(d)) == ({}, {})
    assert mj.visualize_error_counts(out) == ref.visualize_error_counts(
        ref.process_words(["can't meeting today", "a b c d"], ["door cat today", "a x y d"]))


def test_any_python_callable_in_a_compose_is_honoured():
    refs = ["The cat sat.", "Hello, World!", "  a  b  "]
    hyps = ["the bat sat", "hello world", "a b c"]

    def reverse_words(sentences):
        return [" ".join(reversed(s.split())) for s in sentences]

    for make in [
        lambda m: m.Compose([m.ToLowerCase(), reverse_words, m.RemovePunctuation(), m.ReduceToListOfListOfWords()]),
        lambda m: m.Compose([m.SubstituteRegexes({r"(\w)at": r"\1og"}), m.Strip(), m.ReduceToListOfListOfChars()]),
        lambda m: m.Compose([m.Compose([m.ToUpperCase()]), lambda xs: [x + " END" for x in xs],
                             m.ReduceToListOfListOfWords()]),
        lambda m: m.Compose([m.Strip(), lambda xs: [x.split() for x in xs]]),
    ]:
        assert repr(mj.process_words(refs, hyps, make(mj), make(mj))) == \
            repr(ref.process_words(refs, hyps, make(ref), make(ref)))
        assert mj.wer(refs, hyps, make(mj), make(mj)) == ref.wer(refs, hyps, make(ref), make(ref))
    # jiwer's own transforms (the jiwer package's objects) are callables too.
    assert mj.wer(refs, hyps, ref.wer_standardize, ref.wer_standardize) == ref.wer(refs, hyps, ref.wer_standardize,
                                                                                ref.wer_standardize)


def test_bad_transforms_raise_what_jiwer_raises():
    cases = [
        (lambda m: m.Compose([m.ToLowerCase()]), ["a"], ["b"]),
        (lambda m: m.Compose([m.ToLowerCase(), m.ReduceToListOfListOfWords(), m.Strip()]), ["a"], ["b"]),
        (lambda m: m.Compose([m.ReduceToListOfListOfWords(""), ]), ["a b"], ["b"]),
        (lambda m: m.Compose([m.RemoveEmptyStrings(), m.ReduceToListOfListOfWords()]), ["a", " "], ["a", "b"]),
        (lambda m: m.Compose([m.RemoveEmptyStrings()]), [" "], [""]),
        (lambda m: m.Compose([m.ReduceToSingleSentence(), m.ReduceToListOfListOfWords()]), ["", ""], ["", ""]),
        (lambda m: m.wer_default, ["a"], ("a",)),
        (lambda m: m.Compose([m.ToLowerCase(), m.ReduceToListOfListOfWords()]), ["a", 3], ["a", "b"]),
        (lambda m: m.Compose([lambda x: 5]), ["a"], ["b"]),
        (lambda m: m.ReduceToListOfListOfWords(), ["a"], ["b c"]),
        (lambda m: m.wer_contiguous, ["a", "b"], ["a b"]),
    ]
    for make, r, h in cases:
        for fn in ["wer", "process_words", "cer", "process_characters"]:
            theirs = outcome(lambda: repr(getattr(ref, fn)(r, h, make(ref), make(ref))))
            ours = outcome(lambda: repr(getattr(mj, fn)(r, h, make(mj), make(mj))))
            assert ours == theirs, (fn, r, h)
