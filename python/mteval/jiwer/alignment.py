"""jiwer 4.0.0's `jiwer.alignment`: `visualize_alignment` (its text built in Rust), `collect_error_counts` and
`visualize_error_counts`."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Optional, Union

from .. import _native
from .process import CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts"]


def visualize_alignment(output: Union[WordOutput, CharacterOutput], show_measures: bool = True,
                        skip_correct: bool = True, line_width: Optional[int] = None) -> str:
    """Each sentence's REF/HYP/operation lines, then the summary, as jiwer prints them."""
    sentences = [(r, h, [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in al])
                 for r, h, al in zip(output.references, output.hypotheses, output.alignments)]
    return _native.wer_visualize(sentences, isinstance(output, CharacterOutput), bool(show_measures),
                                 bool(skip_correct), _line_width(line_width))


def _line_width(width) -> Optional[int]:
    """jiwer's `line_width` as a whole number of characters: jiwer only tests `len(line) + n > line_width` with
    whole lengths of at least 6, so any number works there; below 0 every chunk starts a line (as 0 does), NaN and
    widths beyond any line never split (as None does), and a fraction acts as its floor."""
    if width is None or width != width or width >= 2**63:
        return None
    return max(0, math.floor(width))


def collect_error_counts(output: Union[WordOutput, CharacterOutput]):
    """How often each error occurs: three dicts (defaultdicts of int, as jiwer's), substitutions keyed by
    `(reference, hypothesis)`, insertions and deletions by their text. A chunk of several tokens is one key: its
    words joined by a space (a `WordOutput`) or its characters joined as they are (a `CharacterOutput`)."""
    substitutions = defaultdict(lambda: 0)
    insertions = defaultdict(lambda: 0)
    deletions = defaultdict(lambda: 0)
    sep = " " if isinstance(output, WordOutput) else ""
    for ref, hyp, chunks in zip(output.references, output.hypotheses, output.alignments):
        for c in chunks:
            if c.type == "insert":
                insertions[sep.join(hyp[c.hyp_start_idx:c.hyp_end_idx])] += 1
            if c.type == "delete":
                deletions[sep.join(ref[c.ref_start_idx:c.ref_end_idx])] += 1
            if c.type == "substitute":
                key = (sep.join(ref[c.ref_start_idx:c.ref_end_idx]), sep.join(hyp[c.hyp_start_idx:c.hyp_end_idx]))
                substitutions[key] += 1
    return substitutions, insertions, deletions


def _listing(errors: dict, top_k: Optional[int]) -> str:
    """One kind of error, the most frequent first (ties in the order first seen), padded to the longest key
    shown; `none` when there is no error."""
    if len(errors) == 0:
        return "none"
    # sorted() is stable with reverse=True too: equal counts keep their first-seen order.
    ranked = sorted(errors.items(), key=lambda kv: kv[1], reverse=True)
    if top_k is not None:
        ranked = ranked[:top_k]
    width = max(len(k) if isinstance(k, str) else max(len(e) for e in k) for k, _ in ranked)
    lines = []
    for k, v in ranked:
        if isinstance(k, tuple):
            lines.append(f"{k[0]: <{width}} --> {k[1]:<{width}} = {v}x\n")
        else:
            lines.append(f"{k:<{width}} = {v}x\n")
    return "".join(lines)


def visualize_error_counts(output: Union[WordOutput, CharacterOutput], show_substitutions: bool = True,
                           show_insertions: bool = True, show_deletions: bool = True,
                           top_k: Optional[int] = None) -> str:
    """The substitutions, insertions and deletions of `output` with their counts, as jiwer prints them."""
    s, i, d = collect_error_counts(output)
    parts = []
    for shown, title, errors in ((show_substitutions, "SUBSTITUTIONS", s), (show_insertions, "INSERTIONS", i),
                                 (show_deletions, "DELETIONS", d)):
        if shown:
            parts.append(f"=== {title} ===\n" + _listing(errors, top_k))
    text = "\n".join(parts)
    return text[:-1] if text.endswith("\n") else text
