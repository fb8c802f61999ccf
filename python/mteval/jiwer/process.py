"""jiwer 4.0.0's `jiwer.process`: `process_words` and `process_characters`, aligned in Rust on all cores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Union

from .. import _native
from .transformations import cer_default, wer_default
from .transforms import _is_str_list, native_program

__all__ = ["AlignmentChunk", "WordOutput", "CharacterOutput", "process_words", "process_characters"]


@dataclass
class AlignmentChunk:
    """jiwer's chunk: `type` is equal, substitute, insert or delete; indices into the token lists."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self):
        if self.type not in ["replace", "insert", "delete", "equal", "substitute"]:
            raise ValueError("")
        if self.type == "replace":
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


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



def _apply_transform(sentence, transform, is_reference: bool):
    """jiwer's check: the transform must end in a list of lists of strings."""
    out = transform(sentence)
    if not _is_list_of_list_of_strings(out):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings.")
    return out


def _is_list_of_list_of_strings(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(e, list) and all(isinstance(s, str) for s in e) for e in x)


def _both_native(reference, hypothesis, reference_transform, hypothesis_transform):
    """The two Rust programs when both transforms run in Rust from end to end on these inputs, else None."""
    if not (_is_str_list(reference) and _is_str_list(hypothesis)):
        return None
    rp, hp = native_program(reference_transform), native_program(hypothesis_transform)
    return None if rp is None or hp is None else (rp, hp)


def _transformed(reference, hypothesis, reference_transform, hypothesis_transform):
    """Both sides through their transforms in Python (any callable), checked as jiwer checks them."""
    r = _apply_transform(reference, reference_transform, is_reference=True)
    h = _apply_transform(hypothesis, hypothesis_transform, is_reference=False)
    if len(r) != len(h):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, their lengths must match. "
            f"Instead got {len(r)} reference and {len(h)} hypothesis sentences.")
    return r, h


def _sides(reference, hypothesis):
    return ([reference] if isinstance(reference, str) else reference,
            [hypothesis] if isinstance(hypothesis, str) else hypothesis)


def measures_of(H, S, D, I, N, P):
    """jiwer 4.0.0's arithmetic on the summed counts: wer, mer, wil, wip."""
    if N == 0:
        wer = I
        mer, wip = (0, 1) if P == 0 else (1, 0)
    else:
        wer = float(S + D + I) / float(H + S + D)
        mer = float(S + D + I) / float(H + S + D + I)
        wip = (float(H) / N) * (float(H) / P) if P >= 1 else 0
    return wer, mer, 1 - wip, wip


def counts(reference, hypothesis, reference_transform, hypothesis_transform):
    """The summed counts (hits, substitutions, deletions, insertions, reference tokens, hypothesis tokens)."""
    reference, hypothesis = _sides(reference, hypothesis)
    programs = _both_native(reference, hypothesis, reference_transform, hypothesis_transform)
    if programs is not None:
        return _native.jiwer_process(programs[0], programs[1], reference, hypothesis, False)
    r, h = _transformed(reference, hypothesis, reference_transform, hypothesis_transform)
    return _native.tokens_process(r, h, False)


def process_words(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                  reference_transform=wer_default, hypothesis_transform=wer_default) -> WordOutput:
    """jiwer's `process_words`: the alignment of each sentence pair and the measures of the summed counts."""
    reference, hypothesis = _sides(reference, hypothesis)
    programs = _both_native(reference, hypothesis, reference_transform, hypothesis_transform)
    if programs is not None:
        sentences = _native.jiwer_process(programs[0], programs[1], reference, hypothesis, True)
        references = [s[0] for s in sentences]
        hypotheses = [s[1] for s in sentences]
        chunk_lists = [s[2] for s in sentences]
    else:
        references, hypotheses = _transformed(reference, hypothesis, reference_transform, hypothesis_transform)
        chunk_lists = _native.tokens_process(references, hypotheses, True)
    H = S = D = I = N = P = 0
    alignments = []
    for r, h, chunks in zip(references, hypotheses, chunk_lists):
        al = []
        for kind, r0, r1, h0, h1 in chunks:
            al.append(AlignmentChunk(kind, r0, r1, h0, h1))
            if kind == "equal":
                H += r1 - r0
            elif kind == "substitute":
                S += r1 - r0
            elif kind == "delete":
                D += r1 - r0
            else:
                I += h1 - h0
        N += len(r)
        P += len(h)
        alignments.append(al)
    wer_, mer_, wil_, wip_ = measures_of(H, S, D, I, N, P)
    return WordOutput(references=references, hypotheses=hypotheses, alignments=alignments, wer=wer_, mer=mer_,
                      wil=wil_, wip=wip_, hits=H, substitutions=S, insertions=I, deletions=D)


def process_characters(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                       reference_transform=cer_default, hypothesis_transform=cer_default) -> CharacterOutput:
    """jiwer's `process_characters`: `process_words` over characters, with `cer`."""
    o = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(references=o.references, hypotheses=o.hypotheses, alignments=o.alignments, cer=o.wer,
                           hits=o.hits, substitutions=o.substitutions, insertions=o.insertions,
                           deletions=o.deletions)
