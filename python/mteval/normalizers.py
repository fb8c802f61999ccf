"""Whisper's text normalisers (whisper-normalizer 0.1.15, from OpenAI Whisper's `whisper/normalizers`), in Rust.

    from mteval.normalizers import EnglishTextNormalizer, BasicTextNormalizer
    normalize = EnglishTextNormalizer()
    normalize("Mr. Smith paid twenty dollars, um, for the colour [noise]")   # 'mister smith paid $20 for the color'
    normalize(["one text", "another"])            # a list gives a list, on all cores

The classes give whisper-normalizer's results exactly: case, categories, `\\d`, `\\s`, `\\b` and Unicode
normalisation are CPython 3.11's (Unicode 14.0), whatever Python runs this. Called on a list they normalise every
text (whisper-normalizer takes one string), so they can stand in a `mteval.jiwer.Compose` before the reduction to
words, where they run in Rust with the steps around them.

* `EnglishTextNormalizer()`: lower-case; remove `[...]`, `<...>`, `(...)` and the fillers hmm, mm, mhm, mmm, uh,
  um; spell out contractions and titles; spoken numbers, currencies and percentages to digits
  (`EnglishNumberNormalizer`); British spellings to American (`EnglishSpellingNormalizer`, Whisper's table);
  remove the remaining symbols; collapse whitespace.
* `BasicTextNormalizer(remove_diacritics=False, split_letters=False, preserve_marks=False)`: any language.
  `split_letters=True` puts a space between grapheme clusters as the `regex` module's `\\X` finds them (its
  properties are those of regex 2026.11.15; `regex` need not be installed).
"""

from __future__ import annotations

import re
from typing import List, Optional, Union

from . import _native

__all__ = ["BasicTextNormalizer", "EnglishTextNormalizer", "EnglishNumberNormalizer", "EnglishSpellingNormalizer"]


class _Normalizer:
    def __call__(self, s: Union[str, List[str]]):
        if isinstance(s, list):
            return self._all(s)
        if not isinstance(s, str):
            return self._other(s)
        return self._all([s])[0]

    def _other(self, s):
        """What whisper-normalizer does with a value that is not a string: its first step, `s.lower()` (an
        AttributeError where there is none), then regular expressions, which refuse bytes and other non-strings
        with re's own TypeError."""
        t = s.lower()
        if isinstance(t, str):
            return self._all([t])[0]
        re.sub(r"\s", "", t)
        raise TypeError(f"expected string, got {type(t).__name__!r}")

    def _all(self, texts: List[str]) -> List[str]:
        raise NotImplementedError

    def _step(self) -> Optional[tuple]:
        """This normaliser as a Rust step of a `mteval.jiwer.Compose`, or None."""
        return None


class BasicTextNormalizer(_Normalizer):
    """Lower-case; remove `[...]`, `<...>` and `(...)` phrases; replace marks, symbols and punctuation by a space
    (NFKC first; `remove_diacritics`: NFKD, diacritics dropped, æ ø ß ... spelled out; `preserve_marks`: marks
    kept); lower-case again; collapse whitespace."""

    def __init__(self, remove_diacritics: bool = False, split_letters: bool = False, preserve_marks: bool = False):
        if remove_diacritics and preserve_marks:
            raise ValueError("preserve_marks cannot be used with remove_diacritics=True")
        self.remove_diacritics = remove_diacritics
        self.split_letters = split_letters
        self.preserve_marks = preserve_marks

    def _all(self, texts: List[str]) -> List[str]:
        return _native.whisper_basic(texts, bool(self.remove_diacritics), bool(self.preserve_marks),
                                     bool(self.split_letters))

    def _step(self):
        opts = "".join(f"|{k}:yes" for k in ("remove_diacritics", "preserve_marks", "split_letters")
                       if getattr(self, k))
        return ("whisper", "basic" + opts)


class EnglishTextNormalizer(_Normalizer):
    """Whisper's English normaliser, as ASR papers and leaderboards apply it before WER."""

    def _all(self, texts: List[str]) -> List[str]:
        return _native.whisper_english(texts)

    def _step(self):
        return ("whisper", "english")


class EnglishNumberNormalizer(_Normalizer):
    """Spoken numbers to digits: "twenty five dollars" → "$25", "one oh one" → "101", "fifty percent" → "50%",
    ordinals and plurals kept as suffixes ("twenty first" → "21st", "the nineteen sixties" → "the 1960s")."""

    def _all(self, texts: List[str]) -> List[str]:
        return _native.whisper_english_numbers(texts)

    def _other(self, s):
        # Its first step is re.split over the value, which raises re's TypeError.
        re.split(r"\s", s)
        raise TypeError(f"expected string, got {type(s).__name__!r}")


class EnglishSpellingNormalizer(_Normalizer):
    """British spellings to American, word by word, with Whisper's table (words are split on whitespace and
    joined by one space)."""

    def _all(self, texts: List[str]) -> List[str]:
        return _native.whisper_english_spellings(texts)

    def _other(self, s):
        # `" ".join(mapping.get(w, w) for w in s.split())`: no split is an AttributeError, non-str words a
        # TypeError from join, none at all the empty string.
        words = s.split()
        if all(isinstance(w, str) for w in words):
            return self._all([" ".join(words)])[0]
        return " ".join(words)
