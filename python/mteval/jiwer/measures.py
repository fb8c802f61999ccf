"""jiwer 4.0.0's measures (`jiwer.measures`): wer, mer, wip, wil and cer, with jiwer's numbers."""

from __future__ import annotations

from typing import List, Union

from .process import counts, measures_of
from .transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wip", "wil", "cer"]


def _measure(k: int, name: str, doc: str, default):
    """jiwer's measure `name`: entry `k` of the measures of the summed counts."""

    # jiwer's measures default both texts to None, which its input check refuses with a ValueError.
    def measure(reference: Union[str, List[str]] = None, hypothesis: Union[str, List[str]] = None,
                reference_transform=default, hypothesis_transform=default) -> float:
        H, S, D, I, N, P = counts(reference, hypothesis, reference_transform, hypothesis_transform)
        return measures_of(H, S, D, I, N, P)[k]

    measure.__name__ = measure.__qualname__ = name
    measure.__doc__ = doc
    return measure


wer = _measure(0, "wer", "Word error rate: (S + D + I) / (H + S + D).", wer_default)
mer = _measure(1, "mer", "Match error rate: (S + D + I) / (H + S + D + I).", wer_default)
wil = _measure(2, "wil", "Word information lost: 1 - wip.", wer_default)
wip = _measure(3, "wip", "Word information preserved: (H / N) * (H / P).", wer_default)
cer = _measure(0, "cer", "Character error rate: the word error rate over characters.", cer_default)
