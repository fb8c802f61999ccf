"""Whisper's text normalisers (whisper-normalizer 0.1.15, from OpenAI Whisper's `whisper/normalizers`), in Rust.

    from mteval.normalizers import BasicTextNormalizer
    normalize = BasicTextNormalizer()
    normalize("Hello, World! [noise]")            # 'hello world '
    normalize(["one text", "another"])            # a list gives a list, on all cores

`BasicTextNormalizer(remove_diacritics=False, split_letters=False, preserve_marks=False)` gives
whisper-normalizer's results exactly: case, categories and Unicode normalisation are CPython 3.11's (Unicode
14.0), whatever Python runs this. Called on a list it normalises every text (whisper-normalizer takes one string),
so it can stand in a `mteval.jiwer.Compose` before the reduction to words. `split_letters=True` splits into
grapheme clusters with the `regex` module's `\\X`, as whisper-normalizer does (it needs `regex` installed).
"""

from __future__ import annotations

import re
from typing import List, Union

from . import _native

__all__ = ["BasicTextNormalizer"]


class BasicTextNormalizer:
    """Lower-case; remove `[...]`, `<...>` and `(...)` phrases; replace marks, symbols and punctuation by a space
    (NFKC first; `remove_diacritics`: NFKD, diacritics dropped, æ ø ß ... spelled out; `preserve_marks`: marks
    kept); lower-case again; collapse whitespace."""

    def __init__(self, remove_diacritics: bool = False, split_letters: bool = False, preserve_marks: bool = False):
        if remove_diacritics and preserve_marks:
            raise ValueError("preserve_marks cannot be used with remove_diacritics=True")
        self.remove_diacritics = remove_diacritics
        self.split_letters = split_letters
        self.preserve_marks = preserve_marks

    def __call__(self, s: Union[str, List[str]]):
        if isinstance(s, list):
            return self._all(s)
        if not isinstance(s, str):
            # What whisper-normalizer's first step raises.
            return s.lower()
        return self._all([s])[0]

    def _all(self, texts: List[str]) -> List[str]:
        out = _native.whisper_basic(texts, bool(self.remove_diacritics), bool(self.preserve_marks))
        if self.split_letters:
            import regex

            # whisper-normalizer splits after cleaning and lower-casing, then collapses whitespace: the Rust half
            # collapsed it already, and a grapheme of whitespace is then one space.
            out = [re.sub(r"\s+", " ", " ".join(regex.findall(r"\X", t, regex.U))) for t in out]
        return out
