"""`mteval.normalizers` against whisper-normalizer 0.1.15, and the Unicode normalisation under it against
CPython's `unicodedata`: every code point in the four forms, fresh random combining sequences, the shared WMT
sides and random multilingual text with brackets, symbols, marks and diacritics, under each option."""
import json
import os
import random
import sys
import unicodedata

import pytest
from whisper_normalizer.basic import BasicTextNormalizer as TheirBasic

from mteval import _native
from mteval import jiwer as mj
from mteval.normalizers import BasicTextNormalizer

SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
CHARS = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]


@pytest.mark.skipif(unicodedata.unidata_version != "14.0.0", reason="the tables are CPython 3.11's")
@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_normalize_on_every_code_point_and_random_sequences(form):
    assert _native.unicode_normalize(form, CHARS) == [unicodedata.normalize(form, c) for c in CHARS]
    # Sequences of starters, composable letters, Hangul jamo and combining marks of many classes, in any order.
    pool = ([chr(c) for c in range(0x41, 0x7B)] + [chr(c) for c in range(0x300, 0x370)] + list("ÅåÇçĳﬁ½한글") +
            [chr(c) for c in range(0x1100, 0x1113)] + [chr(c) for c in range(0x1161, 0x1176)] +
            [chr(c) for c in range(0x11A8, 0x11C3)] + ["\u0b47", "\u0b3e", "\u0b57", "\u0591", "\u05b0", "\u0f71",
                                                         "\u0f72", "\u0f80", "\u1e0a", "\u0323", "\u0307", "ｶ", "ﾞ"])
    rng = random.Random()
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
    assert _native.unicode_normalize(form, texts) == [unicodedata.normalize(form, t) for t in texts]


PIECES = ["Hello", "WORLD", "[noise]", "<unk>", "(laughs)", "()", "(a(b)", "ça", "coûte", "5€", "—", "d'accord?",
          "Æsir", "Łódź", "straße", "ﬁ", "½", "Ｈｅｌｌｏ", "नमस्ते", "दुनिया!", "東京。", "שָׁלוֹם", "مرحبا،", "한국어",
          "ΣΑΣ", "İ", "e\u0301", "\u0301", "$", "+", "@", "#tag", "x_y", "\t", "\n", "\u00a0", "  ", "\u3000",
          "\U0001F600", "\U0001E030", "ǅ", "Ø", "þ", "ð", "\r\n"]


def random_text(rng):
    return " ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))


@pytest.mark.parametrize("options", [{}, {"remove_diacritics": True}, {"preserve_marks": True},
                                     {"split_letters": True}, {"remove_diacritics": True, "split_letters": True}])
def test_basic_normalizer_as_whisper_normalizer(options):
    theirs, ours = TheirBasic(**options), BasicTextNormalizer(**options)
    rng = random.Random()
    texts = [random_text(rng) for _ in range(3000)]
    for pair in ["en-de", "zh-en", "en-ja", "de-en", "en-zh"]:
        path = os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in list(f)[:300]:
                    r = json.loads(line)
                    texts += [r["hyp"], r["ref"]]
    want = [theirs(t) for t in texts]
    assert ours(texts) == want
    assert [ours(t) for t in texts[:200]] == want[:200]


def test_basic_normalizer_in_a_compose_and_its_errors():
    n = BasicTextNormalizer()
    t = mj.Compose([n, mj.ReduceToListOfListOfWords()])
    refs, hyps = ["Hello, World! (applause)", "[noise] Good-bye"], ["hello world", "good bye"]
    assert mj.wer(refs, hyps, t, t) == 0.0
    with pytest.raises(ValueError, match="preserve_marks cannot be used with remove_diacritics=True"):
        BasicTextNormalizer(remove_diacritics=True, preserve_marks=True)
    with pytest.raises(AttributeError, match="'int' object has no attribute 'lower'"):
        n(3)


def test_english_normalizer_as_whisper_normalizer():
    """Thousands of fresh cases per run: WMT English sentences with spoken numbers, currencies, fillers,
    contractions, noise and British spellings injected (whisper_english_cases)."""
    from whisper_normalizer.english import EnglishNumberNormalizer as TheirNumbers
    from whisper_normalizer.english import EnglishSpellingNormalizer as TheirSpellings
    from whisper_normalizer.english import EnglishTextNormalizer as TheirEnglish

    from mteval.normalizers import EnglishNumberNormalizer, EnglishSpellingNormalizer, EnglishTextNormalizer
    from whisper_english_cases import cases

    texts = cases(6000, SHARED)
    theirs = TheirEnglish()
    want = [theirs(t) for t in texts]
    got = EnglishTextNormalizer()(texts)
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(texts)} differ, e.g. {bad[:3]}"
    assert [EnglishTextNormalizer()(t) for t in texts[:300]] == want[:300]
    # The two parts on their own, on lower-cased cases (as the full normaliser gives them).
    lowered = [t.lower() for t in texts[:3000]]
    their_numbers, their_spellings = TheirNumbers(), TheirSpellings()
    assert EnglishNumberNormalizer()(lowered) == [their_numbers(t) for t in lowered]
    assert EnglishSpellingNormalizer()(lowered) == [their_spellings(t) for t in lowered]


def test_english_normalizer_in_a_compose_and_in_wer():
    from whisper_normalizer.english import EnglishTextNormalizer as TheirEnglish

    from mteval.normalizers import EnglishTextNormalizer
    from whisper_english_cases import cases

    refs, hyps = cases(500, SHARED), cases(500, SHARED)
    theirs = TheirEnglish()
    norm_refs, norm_hyps = [theirs(t) for t in refs], [theirs(t) for t in hyps]
    keep = [i for i in range(len(refs)) if norm_refs[i].split()]
    refs, hyps = [refs[i] for i in keep], [hyps[i] for i in keep]
    norm_refs, norm_hyps = [norm_refs[i] for i in keep], [norm_hyps[i] for i in keep]
    c = mj.Compose([EnglishTextNormalizer(), mj.Strip(), mj.ReduceToListOfListOfWords()])
    assert c(refs) == [t.split() for t in norm_refs]
    # As a transform of jiwer's measures: the same as normalising first.
    want = mj.wer(norm_refs, norm_hyps)
    assert mj.wer(refs, hyps, reference_transform=c, hypothesis_transform=c) == want
    # A Python callable beside it (run in Python) gives the same.
    c2 = mj.Compose([lambda x: x, EnglishTextNormalizer(), mj.Strip(), mj.ReduceToListOfListOfWords()])
    assert mj.wer(refs, hyps, reference_transform=c2, hypothesis_transform=c2) == want


def test_grapheme_clusters_as_the_regex_module():
    """split_letters' clusters against `regex.findall(r"\\X", s)`: every ordered pair of characters with
    different grapheme properties, and fresh random sequences of them and of random code points."""
    import regex

    pool = (list("aZ5 \t\r\n\x00\x7f\u00ad") + ["\u0301", "\u200d", "\u200c", "\ufe0f", "\U0001F3FB"] +
            [chr(0x1F1E6 + k) for k in range(0, 26, 5)] + ["\u0600", "\u0d4e", "\u0903", "\u093e", "\u1100", "\u1161",
                                                            "\u11a8", "가", "각", "क", "ष", "\u094d", "\u093c",
                                                            "\u0d4d", "ന", "👩", "💻", "❤", "\u00a9", "\U0001F9D1",
                                                            "\u0e33", "\u0f71", "\u1a60", "\U00011000"])
    pairs = [a + b for a in pool for b in pool]
    rng = random.Random()
    rand = [chr(rng.choice([rng.randrange(0x80, 0x3000), rng.randrange(0xA000, 0xD800),
                            rng.randrange(0xE000, 0x110000)])) for _ in range(3000)]
    seqs = ["".join(rng.choice(pool if rng.random() < 0.8 else rand) for _ in range(rng.randint(1, 9)))
            for _ in range(30000)]
    texts = pairs + seqs
    assert _native.join_graphemes(texts) == [" ".join(regex.findall(r"\X", t)) for t in texts]


def test_lower_is_idempotent_as_the_basic_normalizer_assumes():
    """The basic normaliser lower-cases once when NFKC changes nothing (whisper-normalizer lower-cases twice):
    `str.lower` must be idempotent on every code point, as it is in CPython 3.11."""
    assert [c.lower().lower() for c in CHARS] == [c.lower() for c in CHARS]
    texts = ["ΑΣ.Β ΣΑΣ", "İSTANBUL", "ǅemal", "ΌΣΟΣ ΣΑΣ."]
    assert [t.lower().lower() for t in texts] == [t.lower() for t in texts]
