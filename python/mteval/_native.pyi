"""Type stubs of mteval's extension module (Rust, pyo3)."""

from typing import Any, Literal, Optional, Sequence, Union, overload

__version__: str

class Metric:
    """BLEU, chrF, chrF++ or TER configured by mteval options (``key:value|...``)."""

    def __init__(self, name: str, options: str = "") -> None: ...
    @property
    def name(self) -> str: ...
    def signature(self, nrefs: int) -> str:
        """The signature for ``nrefs`` references (-1: a variable number)."""
    def corpus(self, hyps: Sequence[str], refs: Sequence[Sequence[Optional[str]]]) -> dict[str, Any]:
        """Corpus score and the fields of sacrebleu's score object, over reference streams."""
    def tokenize(self, text: str) -> str:
        """TER's tokenization (sacrebleu's TercomTokenizer), words joined by single spaces."""

class ArrowStream:
    """Record batches readable once through ``__arrow_c_stream__``."""

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

class ScalarFunction:
    @property
    def name(self) -> str: ...
    def __datafusion_scalar_udf__(self) -> object: ...

class AggregateFunction:
    @property
    def name(self) -> str: ...
    def __datafusion_aggregate_udf__(self) -> object: ...

class WindowFunction:
    @property
    def name(self) -> str: ...
    def __datafusion_window_udf__(self) -> object: ...

def scalar_functions() -> list[ScalarFunction]: ...
def aggregate_functions() -> list[AggregateFunction]: ...
def window_functions() -> list[WindowFunction]: ...
def sql(query: str, partitions: int = 1) -> ArrowStream: ...
def compute_bleu(correct: Sequence[int], total: Sequence[int], sys_len: int, ref_len: int,
                 smooth_method: str = "none", smooth_value: Optional[float] = None,
                 effective_order: bool = False, max_ngram_order: int = 4) -> dict[str, Any]: ...
def score(data: object, metrics: Sequence[str], hyp: str, refs: Sequence[str],
          options: Sequence[str] = ..., terms: str = "terms", lemmas: str = "lemmas") -> ArrowStream: ...
def meta(words: Sequence[str], data: Optional[object] = None) -> str: ...
def compare(data: object, metrics: Sequence[str], scores: Sequence[str], system: Optional[str], hyp: str,
            refs: Sequence[str], segment: Optional[str], baseline: Optional[str], test: Optional[str],
            n: Optional[int], ar_confidence_n: Optional[int], seed: Optional[str],
            options: Sequence[str]) -> str:
    """``mteval compare -f json``'s text for a table with a row per system and segment."""
def comet_compare(scores: Sequence[Sequence[float]], seed: int, num_splits: int, sample_ratio: float,
                  alternative: str, lower_is_better: bool
                  ) -> tuple[int, list[tuple[int, int, float, float, float, float, float, float, float]],
                             list[list[Optional[bool]]]]:
    """comet-compare's statistics: the split size, the pairs, the summary grid."""
def pairwise_chrf(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], char_order: int = 6,
                  beta: float = 2.0, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> list[list[list[float]]]:
    """fastchrf's ``pairwise_chrf``: batch x hypotheses x references."""
def aggregate_chrf(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]], char_order: int = 6,
                   beta: float = 2.0, remove_whitespace: bool = True,
                   eps_smoothing: bool = False) -> list[list[float]]:
    """fastchrf's ``aggregate_chrf``: batch x hypotheses."""
def calculate_cer(hyp_words: Sequence[str], ref_words: Sequence[str]) -> float:
    """cer's ``calculate_cer``: CharacTER of one sentence given as words."""
def calculate_cer_corpus(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[str]]) -> dict[str, Any]:
    """cer's ``calculate_cer_corpus``: count, mean, median, std, min, max, cer_scores."""
def whisper_basic(texts: Sequence[str], remove_diacritics: bool, preserve_marks: bool,
                  split_letters: bool) -> list[str]:
    """whisper-normalizer's ``BasicTextNormalizer`` of each text."""
def whisper_english(texts: Sequence[str]) -> list[str]:
    """whisper-normalizer's ``EnglishTextNormalizer`` of each text."""
def whisper_english_numbers(texts: Sequence[str]) -> list[str]:
    """whisper-normalizer's ``EnglishNumberNormalizer`` of each text."""
def whisper_english_spellings(texts: Sequence[str]) -> list[str]:
    """whisper-normalizer's ``EnglishSpellingNormalizer`` of each text."""
def join_graphemes(texts: Sequence[str]) -> list[str]:
    """``" ".join(regex.findall(r"\\X", text))`` of each text (regex 2026.11.15's grapheme clusters)."""
def unicode_normalize(form: str, texts: Sequence[str]) -> list[str]:
    """``unicodedata.normalize(form, text)`` of CPython 3.11 for each text."""
Step = tuple[str, Any]
Chunk = tuple[str, int, int, int, int]
def jiwer_apply(steps: Sequence[Step], text: Union[str, list[str]]) -> Union[str, list[str], list[list[str]]]:
    """A Compose of jiwer's transform classes, as Rust steps, applied to a string or a list of strings."""
Counts = tuple[int, int, int, int, int, int]
@overload
def jiwer_process(reference_steps: Sequence[Step], hypothesis_steps: Sequence[Step], references: Sequence[str],
                  hypotheses: Sequence[str], alignments: Literal[True]) -> list[tuple[list[str], list[str], list[Chunk]]]:
    """Both sides through their steps, then jiwer's alignment of each pair: tokens and chunks."""
@overload
def jiwer_process(reference_steps: Sequence[Step], hypothesis_steps: Sequence[Step], references: Sequence[str],
                  hypotheses: Sequence[str], alignments: Literal[False]) -> Counts:
    """Both sides through their steps, then the summed hits, substitutions, deletions, insertions, reference and
    hypothesis lengths."""
@overload
def tokens_process(references: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[str]],
                   alignments: Literal[True]) -> list[list[Chunk]]:
    """The chunks of each pair of token lists."""
@overload
def tokens_process(references: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[str]],
                   alignments: Literal[False]) -> Counts:
    """The summed counts of pairs of token lists."""
def wer_visualize(sentences: Sequence[tuple[list[str], list[str], list[tuple[str, int, int, int, int]]]], char: bool,
                  show_measures: bool = True, skip_correct: bool = True, line_width: Optional[int] = None) -> str:
    """jiwer's ``visualize_alignment`` text."""
