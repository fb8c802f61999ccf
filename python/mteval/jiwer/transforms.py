"""jiwer 4.0.0's transform classes (`jiwer.transforms`), with jiwer's behaviour.

Every class works as jiwer's does on a `str` or a `list` of `str` (and raises what jiwer raises on anything
else). A `Compose` whose transforms are all of these classes, with ordinary parameters, runs in Rust over the
whole list at once (`mteval._native.jiwer_apply`); any other callable in a `Compose` is called from Python in
its place, between Rust runs of the steps around it. `process_words` and the measures go further: a Compose
that runs in Rust from end to end is applied, tokenised and aligned in one native call.
"""

from __future__ import annotations

import functools
import re
import string
import sys
import unicodedata
from typing import Iterable, List, Mapping, Optional, Union

from .. import _native
from .. import normalizers as _normalizers

__all__ = [
    "AbstractTransform",
    "Compose",
    "ExpandCommonEnglishContractions",
    "RemoveEmptyStrings",
    "ReduceToListOfListOfWords",
    "ReduceToListOfListOfChars",
    "ReduceToSingleSentence",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
]


#: The Rust steps that depend on Unicode tables (case mappings, categories, `\w`) have CPython 3.11's (Unicode
#: 14.0): under another Python they run in Python, with that Python's tables, as jiwer does.
_UNICODE14 = unicodedata.unidata_version == "14.0.0"


class AbstractTransform(object):
    """A transform: `process_string` for a `str`, `process_list` for a `list` of them."""

    def __call__(self, sentences: Union[str, List[str]]):
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError("input {} was expected to be a string or list of strings".format(sentences))

    def process_string(self, s: str):
        raise NotImplementedError()

    def process_list(self, inp: List[str]):
        return [self.process_string(s) for s in inp]

    # The name of the Rust step of a transform that takes no argument.
    _STEP: Optional[str] = None

    def _step(self) -> Optional[tuple]:
        """This transform as a Rust step `(name, argument)`, or None when it runs in Python. Only the exact
        classes of this module have steps: a subclass may override `process_string`."""
        return None if self._STEP is None else (self._STEP, None)


def _native_step(t) -> Optional[list]:
    """The Rust steps of `t` (one transform or a nested Compose), or None."""
    if type(t) is Compose:
        steps = []
        for x in t.transforms if isinstance(t.transforms, (list, tuple)) else ():
            s = _native_step(x)
            if s is None:
                return None
            steps += s
        return steps if isinstance(t.transforms, (list, tuple)) else None
    if type(t) in _EXACT:
        s = t._step()
        return None if s is None else [s]
    return None


def _is_str_list(x) -> bool:
    return isinstance(x, list) and all(type(s) is str for s in x)


def _program(steps: list) -> Optional[list]:
    """`steps` if Rust runs them exactly (reductions to tokens last, non-empty delimiters and words, no
    replacement templates), else None."""
    for i, (name, arg) in enumerate(steps):
        if name in ("words", "chars") and i != len(steps) - 1:
            return None
        if name in ("words", "single") and arg == "":
            return None
        if name == "words_sub" and any(k == "" or "\\" in v for k, v in arg):
            return None
    return steps


def native_program(transform) -> Optional[list]:
    """The whole of `transform` as one Rust program, or None (then it is called from Python)."""
    steps = _native_step(transform)
    return None if steps is None else _program(steps)


class Compose(object):
    """Transforms chained back to back (jiwer's `Compose`)."""

    def __init__(self, transforms: List[AbstractTransform]):
        self.transforms = transforms

    def __call__(self, text):
        program = native_program(self)
        if program is not None and (type(text) is str or _is_str_list(text)):
            return _native.jiwer_apply(program, text)
        # Runs of Rust steps between the transforms that run in Python.
        run: list = []
        for tr in self.transforms:
            step = _native_step(tr)
            if step is not None and _program(run + step) is not None:
                run += step
                continue
            text = _flush(run, text)
            run = []
            if step is not None and _program(step) is not None:
                run = step
            else:
                text = tr(text)
        return _flush(run, text)


def _flush(run: list, text):
    if not run:
        return text
    if type(text) is str or _is_str_list(text):
        return _native.jiwer_apply(run, text)
    # Not a string or a list of strings: the Python classes raise what jiwer raises (or pass what it passes).
    for name, arg in run:
        text = _PY_STEPS[name](arg)(text)
    return text


class BaseRemoveTransform(AbstractTransform):
    def __init__(self, tokens_to_remove: Iterable[str], replace_token=""):
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str):
        for w in self.tokens_to_remove:
            s = s.replace(w, self.replace_token)
        return s

    def process_list(self, inp: List[str]):
        return [self.process_string(s) for s in inp]


class ReduceToListOfListOfWords(AbstractTransform):
    """Each sentence to its list of words (split on `word_delimiter`, empty words dropped); a `list` gives a
    list of such lists (`[[]]` for an empty list)."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return [[w for w in s.split(self.word_delimiter) if len(w) >= 1]]

    def process_list(self, inp: List[str]):
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]

    def _step(self):
        return ("words", self.word_delimiter) if type(self.word_delimiter) is str else None


class ReduceToListOfListOfChars(AbstractTransform):
    """Each sentence to its list of characters; a `list` gives a list of such lists (`[[]]` for an empty
    list)."""

    _STEP = "chars"

    def process_string(self, s: str):
        return [[w for w in s]]

    def process_list(self, inp: List[str]):
        out = [self.process_string(sentence)[0] for sentence in inp]
        return out if out else [[]]


class ReduceToSingleSentence(AbstractTransform):
    """A list of sentences to one: the non-empty ones joined by `word_delimiter` (`[]` if none)."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return s

    def process_list(self, inp: List[str]):
        kept = [i for i in inp if len(i) >= 1]
        return ["{}".format(self.word_delimiter).join(kept)] if kept else []

    def _step(self):
        return ("single", self.word_delimiter) if type(self.word_delimiter) is str else None


class SubstituteRegexes(AbstractTransform):
    """`re.sub(pattern, replacement, s)` for each item of the mapping, in order (Python's `re`: its
    semantics are the definition, so this step always runs in Python)."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for key, value in self.substitutions.items():
            s = re.sub(key, value, s)
        return s


def _word_items(substitutions):
    if type(substitutions) is not dict:
        return None
    items = list(substitutions.items())
    if all(type(k) is str and type(v) is str for k, v in items):
        return items
    return None


class SubstituteWords(AbstractTransform):
    """Whole words replaced: `re.sub(r"\\b" + re.escape(word) + r"\\b", replacement, s)` for each item, in
    order."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for key, value in self.substitutions.items():
            s = re.sub(r"\b{}\b".format(re.escape(key)), value, s)
        return s

    def _step(self):
        items = _word_items(self.substitutions)
        return None if items is None or not _UNICODE14 else ("words_sub", items)


class RemoveSpecificWords(SubstituteWords):
    """Whole words replaced by a space."""

    def __init__(self, words_to_remove: List[str]):
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """Each character of `string.whitespace` removed, or replaced by a space (`replace_by_space=True`)."""

    def __init__(self, replace_by_space: bool = False):
        super().__init__([c for c in string.whitespace], replace_token=" " if replace_by_space else "")

    def _step(self):
        if list(self.tokens_to_remove) == list(string.whitespace) and self.replace_token in ("", " "):
            return ("whitespace", self.replace_token == " ")
        return None


@functools.lru_cache(1)
def _punctuation() -> frozenset:
    return frozenset(chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P"))


class RemovePunctuation(BaseRemoveTransform):
    """Every character of a Unicode category P* removed."""

    def __init__(self):
        # The set is computed on first use in Python (a scan of every code point): the Rust step needs none.
        self.replace_token = ""

    @property
    def tokens_to_remove(self):
        return self.__dict__.get("_tokens") or _punctuation()

    @tokens_to_remove.setter
    def tokens_to_remove(self, value):
        self.__dict__["_tokens"] = value

    def process_string(self, s: str):
        if "_tokens" not in self.__dict__ and self.replace_token == "" and type(s) is str:
            return "".join(c for c in s if not unicodedata.category(c).startswith("P"))
        return super().process_string(s)

    def _step(self):
        exact = _UNICODE14 and "_tokens" not in self.__dict__ and self.replace_token == ""
        return ("punctuation", None) if exact else None


class RemoveMultipleSpaces(AbstractTransform):
    """Runs of two or more whitespace characters to one space (`re.sub(r"\\s\\s+", " ", s)`)."""

    _STEP = "spaces"

    def process_string(self, s: str):
        return re.sub(r"\s\s+", " ", s)

    def process_list(self, inp: List[str]):
        return [self.process_string(s) for s in inp]


class Strip(AbstractTransform):
    """`s.strip()`."""

    _STEP = "strip"

    def process_string(self, s: str):
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """A list keeps its sentences that are not blank; a string is stripped."""

    _STEP = "empty"

    def process_string(self, s: str):
        return s.strip()

    def process_list(self, inp: List[str]):
        return [s for s in inp if self.process_string(s) != ""]


_CONTRACTIONS = ((r"won't", "will not"), (r"can\'t", "can not"), (r"let\'s", "let us"), (r"n\'t", " not"),
                 (r"\'re", " are"), (r"\'s", " is"), (r"\'d", " would"), (r"\'ll", " will"), (r"\'t", " not"),
                 (r"\'ve", " have"), (r"\'m", " am"))


class ExpandCommonEnglishContractions(AbstractTransform):
    """English contractions expanded (`won't` → `will not`, `'re` → ` are`, ...), case-sensitively."""

    _STEP = "contractions"

    def process_string(self, s: str):
        for pattern, by in _CONTRACTIONS:
            s = re.sub(pattern, by, s)
        return s


class ToLowerCase(AbstractTransform):
    """`s.lower()`."""

    def process_string(self, s: str):
        return s.lower()

    def _step(self):
        return ("lower", None) if _UNICODE14 else None


class ToUpperCase(AbstractTransform):
    """`s.upper()`."""

    def process_string(self, s: str):
        return s.upper()

    def _step(self):
        return ("upper", None) if _UNICODE14 else None


class RemoveKaldiNonWords(AbstractTransform):
    """Kaldi's non-words removed: from each `<` or `[` to the next `>` or `]`."""

    _STEP = "kaldi"

    def process_string(self, s: str):
        return re.sub(r"[<\[][^>\]]*[>\]]", "", s)


_EXACT = {ReduceToListOfListOfWords, ReduceToListOfListOfChars, ReduceToSingleSentence, SubstituteWords,
          RemoveSpecificWords, RemoveWhiteSpace, RemovePunctuation, RemoveMultipleSpaces, Strip, RemoveEmptyStrings,
          ExpandCommonEnglishContractions, ToLowerCase, ToUpperCase, RemoveKaldiNonWords}
# Whisper's normalisers (`mteval.normalizers`) run in Rust inside a Compose too.
_EXACT |= {_normalizers.BasicTextNormalizer, _normalizers.EnglishTextNormalizer}


def _sub_words(items):
    t = SubstituteWords({})
    t.substitutions = dict(items)
    return t


# A step back to a Python transform: how `_flush` runs it on input Rust does not take.
_PY_STEPS = {
    "lower": lambda _: ToLowerCase(), "upper": lambda _: ToUpperCase(), "punctuation": lambda _: RemovePunctuation(),
    "spaces": lambda _: RemoveMultipleSpaces(), "whitespace": lambda by: RemoveWhiteSpace(by), "strip": lambda _: Strip(),
    "empty": lambda _: RemoveEmptyStrings(), "kaldi": lambda _: RemoveKaldiNonWords(),
    "contractions": lambda _: ExpandCommonEnglishContractions(), "words_sub": _sub_words,
    "single": ReduceToSingleSentence, "words": ReduceToListOfListOfWords, "chars": lambda _: ReduceToListOfListOfChars(),
}
