"""jiwer 4.0.0's API with jiwer's numbers, aligned by mteval's Rust kernels on all cores.

    from mteval import jiwer
    jiwer.wer(reference, hypothesis)                 # the reference first, as in jiwer
    out = jiwer.process_words(references, hypotheses)
    print(jiwer.visualize_alignment(out))

`wer`, `mer`, `wil`, `wip`, `cer`, `process_words`, `process_characters` and `visualize_alignment` take
jiwer's arguments and return jiwer's values and objects (`WordOutput`, `CharacterOutput`,
`AlignmentChunk`, with the same fields). Transforms are jiwer's named presets (`wer_default`,
`wer_standardize`, `cer_default`, `wer_contiguous`, `cer_contiguous`); the same preset must be given for
the reference and the hypothesis. A custom `Compose` is refused (mteval implements the presets, not
jiwer's transform classes).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from types import SimpleNamespace
from typing import List, Union

from . import _native

__all__ = [
    "AlignmentChunk",
    "CharacterOutput",
    "WordOutput",
    "cer",
    "cer_contiguous",
    "cer_default",
    "mer",
    "process_characters",
    "process_words",
    "transformations",
    "visualize_alignment",
    "wer",
    "wer_contiguous",
    "wer_default",
    "wer_standardize",
    "wil",
    "wip",
]


class Preset:
    """One of jiwer's named transform presets (mteval applies it in Rust)."""

    def __init__(self, name: str, options: str, contiguous: bool = False):
        self.name, self.options, self.contiguous = name, options, contiguous

    def __repr__(self) -> str:
        return f"mteval.jiwer.{self.name}"


wer_default = Preset("wer_default", "")
wer_standardize = Preset("wer_standardize", "transform:standardize")
cer_default = Preset("cer_default", "unit:char")
wer_contiguous = Preset("wer_contiguous", "", contiguous=True)
cer_contiguous = Preset("cer_contiguous", "unit:char", contiguous=True)

#: The presets under jiwer's module name for them (`jiwer.transformations.wer_contiguous`).
transformations = SimpleNamespace(wer_default=wer_default, wer_standardize=wer_standardize, cer_default=cer_default,
                                  wer_contiguous=wer_contiguous, cer_contiguous=cer_contiguous)


@dataclass
class AlignmentChunk:
    """jiwer's chunk: `type` is equal, substitute, insert or delete; indices into the token lists."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int


# jiwer's two outputs share their first fields (the token lists and alignments) and their last (the edit
# counts), with their measures between. A dataclass lists the fields of its bases in reverse method-resolution
# order, then its own: `class X(_Counts, _Measures)`, with `_Measures(_Tokens)`, lists _Tokens' fields, the
# measures, then _Counts' fields, as jiwer does.


@dataclass
class _Tokens:
    references: List[List[str]]
    hypotheses: List[List[str]]
    alignments: List[List[AlignmentChunk]]


@dataclass
class _Counts:
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class _WordMeasures(_Tokens):
    wer: float
    mer: float
    wil: float
    wip: float


@dataclass
class WordOutput(_Counts, _WordMeasures):
    """jiwer's `process_words` result: references, hypotheses, alignments, wer, mer, wil, wip, hits,
    substitutions, insertions, deletions."""


@dataclass
class _CharacterMeasures(_Tokens):
    cer: float


@dataclass
class CharacterOutput(_Counts, _CharacterMeasures):
    """jiwer's `process_characters` result: references, hypotheses, alignments, cer, hits, substitutions,
    insertions, deletions."""


def _preset(reference_transform, hypothesis_transform) -> Preset:
    for t in (reference_transform, hypothesis_transform):
        if not isinstance(t, Preset):
            raise TypeError(
                f"mteval.jiwer takes jiwer's named transform presets (wer_default, wer_standardize, cer_default, "
                f"wer_contiguous, cer_contiguous from mteval.jiwer), not {t!r}")
    if reference_transform is not hypothesis_transform:
        raise ValueError(f"mteval.jiwer applies one preset to both sides: got {reference_transform!r} for the "
                         f"reference and {hypothesis_transform!r} for the hypothesis")
    return reference_transform


# jiwer 4.0.0's transforms, step by step, for inputs that are not a string or a list of strings: run only to
# raise the error jiwer raises for them (or, for the few that pass, to learn that they do). `each` steps map
# every string; the reductions are jiwer's `process_string` / `process_list` pair.
def _contractions(s):
    for pattern, by in ((r"won't", "will not"), (r"can\'t", "can not"), (r"let\'s", "let us"), (r"n\'t", " not"),
                        (r"\'re", " are"), (r"\'s", " is"), (r"\'d", " would"), (r"\'ll", " will"),
                        (r"\'t", " not"), (r"\'ve", " have"), (r"\'m", " am")):
        s = re.sub(pattern, by, s)
    return s


def _whitespace(s):
    for c in string.whitespace:
        s = s.replace(c, " ")
    return s


def _words_of(s):
    return [[w for w in s.split(" ") if len(w) >= 1]]


def _chars_of(s):
    return [[w for w in s]]


def _single(xs):
    kept = [i for i in xs if len(i) >= 1]
    return [" ".join(kept)] if kept else []


def _reduce(of):
    def each_list(xs):
        out = [of(s)[0] for s in xs]
        return out if out else [[]]
    return of, each_list


_EACH = {
    "spaces": lambda s: re.sub(r"\s\s+", " ", s),
    "strip": lambda s: s.strip(),
    "lower": lambda s: s.lower(),
    "contractions": _contractions,
    "kaldi": lambda s: re.sub(r"[<\[][^>\]]*[>\]]", "", s),
    "whitespace": _whitespace,
}
_REDUCE = {"single": (lambda s: s, _single), "words": _reduce(_words_of), "chars": _reduce(_chars_of)}
_STEPS = {
    "wer_default": ["spaces", "strip", "words"],
    "wer_standardize": ["lower", "contractions", "kaldi", "whitespace", "spaces", "strip", "words"],
    "cer_default": ["strip", "chars"],
    "wer_contiguous": ["spaces", "strip", "single", "words"],
    "cer_contiguous": ["strip", "single", "chars"],
}


def _as_jiwer(sentences, preset: Preset, is_reference: bool) -> None:
    """jiwer's `Compose` of `preset` over `sentences`, raising what jiwer raises (`ValueError` for an input that is
    neither a string nor a list, jiwer's own `TypeError` or `AttributeError` for a list item that is no string)."""
    text = sentences
    for step in _STEPS[preset.name]:
        one, many = _REDUCE[step] if step in _REDUCE else (_EACH[step], None)
        if isinstance(text, str):
            text = one(text)
        elif isinstance(text, list):
            text = many(text) if many else [one(s) for s in text]
        else:
            raise ValueError("input {} was expected to be a string or list of strings".format(text))
    if not (isinstance(text, list) and all(isinstance(e, list) and all(isinstance(s, str) for s in e) for e in text)):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings.")


def _sentences(x, preset: Preset, is_reference: bool) -> list:
    """One side as a list of strings, checked as jiwer checks it: a string is one sentence, a list (not a tuple or
    another iterable) its sentences; anything else raises what jiwer raises."""
    if isinstance(x, str):
        return [x]
    if isinstance(x, list) and all(isinstance(s, str) for s in x):
        return list(x)
    _as_jiwer(x, preset, is_reference)
    # What jiwer's transforms let through besides strings (empty bytes: stripped to nothing) is an empty sentence.
    return [s if isinstance(s, str) else "" for s in x]


def _lists(reference, hypothesis, preset: Preset):
    refs = _sentences(reference, preset, True)
    hyps = _sentences(hypothesis, preset, False)
    if preset.contiguous:
        # The per-sentence steps (RemoveMultipleSpaces for words, Strip), then ReduceToSingleSentence: the
        # non-empty sentences joined by a space; always one sentence (jiwer's reduction to lists of tokens
        # turns no sentence into one empty sentence).
        def join(xs):
            parts = [(x if preset.options else re.sub(r"\s\s+", " ", x)).strip() for x in xs]
            return [" ".join(p for p in parts if len(p) >= 1)]
        refs, hyps = join(refs), join(hyps)
    else:
        # jiwer's reduction to lists of tokens turns no sentence into one empty sentence.
        refs, hyps = refs or [""], hyps or [""]
    return refs, hyps


def _measures(H, S, D, I, N, P):
    """jiwer 4.0.0 process.py's arithmetic on the summed counts."""
    if N == 0:
        wer = I
        mer, wip = (0, 1) if P == 0 else (1, 0)
    else:
        wer = float(S + D + I) / float(H + S + D)
        mer = float(S + D + I) / float(H + S + D + I)
        wip = (float(H) / N) * (float(H) / P) if P >= 1 else 0
    return wer, mer, 1 - wip, wip


def process_words(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                  reference_transform=wer_default, hypothesis_transform=wer_default) -> WordOutput:
    """jiwer's `process_words`: the alignment of each sentence pair and the measures of the summed counts."""
    preset = _preset(reference_transform, hypothesis_transform)
    refs, hyps = _lists(reference, hypothesis, preset)
    sentences = _native.wer_align(refs, hyps, preset.options)
    H = S = D = I = N = P = 0
    references, hypotheses, alignments = [], [], []
    for r, h, chunks in sentences:
        al = [AlignmentChunk(*c) for c in chunks]
        for c in al:
            if c.type == "equal":
                H += c.ref_end_idx - c.ref_start_idx
            elif c.type == "substitute":
                S += c.ref_end_idx - c.ref_start_idx
            elif c.type == "delete":
                D += c.ref_end_idx - c.ref_start_idx
            else:
                I += c.hyp_end_idx - c.hyp_start_idx
        N += len(r)
        P += len(h)
        references.append(r)
        hypotheses.append(h)
        alignments.append(al)
    wer_, mer_, wil_, wip_ = _measures(H, S, D, I, N, P)
    return WordOutput(references=references, hypotheses=hypotheses, alignments=alignments, wer=wer_, mer=mer_,
                      wil=wil_, wip=wip_, hits=H, substitutions=S, insertions=I, deletions=D)


def process_characters(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                       reference_transform=cer_default, hypothesis_transform=cer_default) -> CharacterOutput:
    """jiwer's `process_characters`: `process_words` over characters, with `cer`."""
    o = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(references=o.references, hypotheses=o.hypotheses, alignments=o.alignments, cer=o.wer,
                           hits=o.hits, substitutions=o.substitutions, insertions=o.insertions,
                           deletions=o.deletions)


def _measure(k, reference, hypothesis, reference_transform, hypothesis_transform):
    preset = _preset(reference_transform, hypothesis_transform)
    refs, hyps = _lists(reference, hypothesis, preset)
    return _measures(*_native.wer_counts(refs, hyps, preset.options))[k]


def wer(reference, hypothesis, reference_transform=wer_default, hypothesis_transform=wer_default) -> float:
    """jiwer's `wer`."""
    return _measure(0, reference, hypothesis, reference_transform, hypothesis_transform)


def mer(reference, hypothesis, reference_transform=wer_default, hypothesis_transform=wer_default) -> float:
    """jiwer's `mer`."""
    return _measure(1, reference, hypothesis, reference_transform, hypothesis_transform)


def wil(reference, hypothesis, reference_transform=wer_default, hypothesis_transform=wer_default) -> float:
    """jiwer's `wil`."""
    return _measure(2, reference, hypothesis, reference_transform, hypothesis_transform)


def wip(reference, hypothesis, reference_transform=wer_default, hypothesis_transform=wer_default) -> float:
    """jiwer's `wip`."""
    return _measure(3, reference, hypothesis, reference_transform, hypothesis_transform)


def cer(reference, hypothesis, reference_transform=cer_default, hypothesis_transform=cer_default) -> float:
    """jiwer's `cer`."""
    return _measure(0, reference, hypothesis, reference_transform, hypothesis_transform)


def visualize_alignment(output: Union[WordOutput, CharacterOutput], show_measures: bool = True,
                        skip_correct: bool = True, line_width: int = None) -> str:
    """jiwer's `visualize_alignment`: each sentence's REF/HYP/operation lines, then the summary."""
    sentences = [(r, h, [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in al])
                 for r, h, al in zip(output.references, output.hypotheses, output.alignments)]
    return _native.wer_visualize(sentences, isinstance(output, CharacterOutput), show_measures, skip_correct,
                                 line_width)
