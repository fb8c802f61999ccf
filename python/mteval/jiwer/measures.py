"""jiwer 4.0.0's measures (`jiwer.measures`): wer, mer, wip, wil and cer, with jiwer's numbers."""

from __future__ import annotations

from typing import List, Union

from .process import counts, measures_of
from .transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wip", "wil", "cer"]


def _measure(k, reference, hypothesis, reference_transform, hypothesis_transform):
    H, S, D, I, N, P = counts(reference, hypothesis, reference_transform, hypothesis_transform)
    return measures_of(H, S, D, I, N, P)[k]


def wer(reference: Union[str, List[str]], hypothesis: Union[str, List[str]], reference_transform=wer_default,
        hypothesis_transform=wer_default) -> float:
    """Word error rate: (S + D + I) / (H + S + D)."""
    return _measure(0, reference, hypothesis, reference_transform, hypothesis_transform)


def mer(reference: Union[str, List[str]], hypothesis: Union[str, List[str]], reference_transform=wer_default,
        hypothesis_transform=wer_default) -> float:
    """Match error rate: (S + D + I) / (H + S + D + I)."""
    return _measure(1, reference, hypothesis, reference_transform, hypothesis_transform)


def wip(reference: Union[str, List[str]], hypothesis: Union[str, List[str]], reference_transform=wer_default,
        hypothesis_transform=wer_default) -> float:
    """Word information preserved: (H / N) * (H / P)."""
    return _measure(3, reference, hypothesis, reference_transform, hypothesis_transform)


def wil(reference: Union[str, List[str]], hypothesis: Union[str, List[str]], reference_transform=wer_default,
        hypothesis_transform=wer_default) -> float:
    """Word information lost: 1 - wip."""
    return _measure(2, reference, hypothesis, reference_transform, hypothesis_transform)


def cer(reference: Union[str, List[str]], hypothesis: Union[str, List[str]], reference_transform=cer_default,
        hypothesis_transform=cer_default) -> float:
    """Character error rate: the word error rate over characters."""
    return _measure(0, reference, hypothesis, reference_transform, hypothesis_transform)
