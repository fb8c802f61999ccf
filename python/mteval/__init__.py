"""mteval: machine-translation evaluation with sacrebleu's, fastchrf's and cer's numbers, exactly, on all cores.

The calls have the shapes of the tools they replace::

    from mteval import BLEU, CHRF, TER                 # sacrebleu.metrics
    from mteval import pairwise_chrf, aggregate_chrf   # fastchrf
    from mteval import calculate_cer, calculate_cer_corpus  # cer

and return the same numbers, computed by mteval's Rust kernels with the
interpreter released and the segments spread over all cores. Tables go
through the Arrow PyCapsule interface (pyarrow, polars, pandas >= 2.2):
``mteval.score(table, ["ter", "chrf"], hyp="hyp", refs=["ref"])`` appends the
per-row scores ``mteval score`` writes, ``mteval.sql(query)`` runs a query the
way ``mteval sql`` does (files queryable by path), and
``mteval.register(ctx)`` adds every mteval SQL function to a
datafusion-python ``SessionContext``.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

from . import _native

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "Score",
    "pairwise_chrf",
    "aggregate_chrf",
    "calculate_cer",
    "calculate_cer_corpus",
    "score",
    "sql",
    "register",
    "__version__",
]

__version__: str = _native.__version__

pairwise_chrf = _native.pairwise_chrf
aggregate_chrf = _native.aggregate_chrf
calculate_cer = _native.calculate_cer
calculate_cer_corpus = _native.calculate_cer_corpus


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


class Score:
    """A score as sacrebleu's ``Score``: ``name``, ``score`` and ``format()``."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str:
        """sacrebleu's ``Score.format`` (without the JSON and confidence parts)."""
        sc = f"{self.score:.{width}f}"
        if score_only:
            return sc
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {sc}"
        if self._verbose:
            full += f" {self._verbose}"
        return full

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """sacrebleu's ``BLEUScore``: ``score``, ``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len``."""

    def __init__(self, score: float, counts: list[int], totals: list[int], precisions: list[float],
                 bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
                         f"hyp_len = {sys_len:d} ref_len = {ref_len:d})")


class CHRFScore(Score):
    """sacrebleu's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class TERScore(Score):
    """sacrebleu's ``TERScore``: ``score``, ``num_edits``, ``ref_length``."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class _Metric:
    """What sacrebleu's metrics share: ``sentence_score``, ``corpus_score``, ``get_signature``."""

    def __init__(self, name: str, options: str) -> None:
        self._native = _native.Metric(name, options)
        self.num_refs = 0

    def _make(self, d: dict) -> Score:
        raise NotImplementedError

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[Optional[str]]]]) -> Score:
        """The corpus score of ``hypotheses`` against the reference streams ``references``
        (sacrebleu's shape: one list per reference, each as long as the hypotheses;
        ``None`` marks a missing reference)."""
        if references is None:
            raise ValueError("references are required: mteval does not cache references")
        streams = [list(s) for s in references]
        counts = {sum(1 for s in streams if s[i] is not None) for i in range(len(hypotheses))} if streams else set()
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return self._make(self._native.corpus(list(hypotheses), streams))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        """The score of one hypothesis against its references."""
        if isinstance(references, str):
            raise TypeError("references must be a list of strings, not a string")
        self.num_refs = len(references)
        return self._make(self._native.corpus([hypothesis], [[r] for r in references]))

    def get_signature(self) -> str:
        """The signature, as sacrebleu's (plus ``impl:``): known once the metric has scored."""
        if self.num_refs == 0:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return self._native.signature(self.num_refs)


class BLEU(_Metric):
    """sacrebleu's ``BLEU``, with its arguments and defaults (``tokenize=None`` picks
    13a, or zh for ``trg_lang='zh'``; ja-mecab, ko-mecab and the SentencePiece
    tokenizers are a ``ValueError``: mteval ships no models)."""

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: Optional[str] = None,
                 smooth_method: str = "exp", smooth_value: Optional[float] = None,
                 max_ngram_order: int = 4, effective_order: bool = False, trg_lang: str = "",
                 references: Optional[Sequence[Sequence[str]]] = None) -> None:
        if references is not None:
            raise ValueError("references: mteval does not cache references; pass them to corpus_score")
        del force  # sacrebleu only warns with it
        opts = [f"case:{'lc' if lowercase else 'mixed'}", f"eff:{_yn(effective_order)}",
                f"smooth:{smooth_method}", f"ngram:{max_ngram_order}"]
        if tokenize is not None:
            opts.append(f"tok:{tokenize}")
        if smooth_value is not None:
            opts.append(f"smooth_value:{smooth_value!r}")
        if trg_lang:
            opts.append(f"trg_lang:{trg_lang}")
        super().__init__("bleu", "|".join(opts))
        self._add_k = (1 if smooth_value is None else smooth_value) if smooth_method == "add-k" else None

    def _make(self, d: dict) -> BLEUScore:
        counts, totals = d["counts"], d["totals"]
        if self._add_k is not None and any(counts):
            # sacrebleu's compute_bleu adds k to the lists it then reports, order by order
            # up to the first order with no n-gram.
            for n in range(1, len(totals) + 1):
                if n > 1:
                    counts[n - 1] += self._add_k
                    totals[n - 1] += self._add_k
                if totals[n - 1] == 0:
                    break
        return BLEUScore(d["score"], counts, totals, d["precisions"], d["bp"], d["sys_len"], d["ref_len"])


class CHRF(_Metric):
    """sacrebleu's ``CHRF`` (``word_order=2`` is chrF++), with its arguments and defaults."""

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: int = 2, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False,
                 references: Optional[Sequence[Sequence[str]]] = None) -> None:
        if references is not None:
            raise ValueError("references: mteval does not cache references; pass them to corpus_score")
        opts = [f"nc:{char_order}", f"nw:{word_order}", f"beta:{beta}", f"case:{'lc' if lowercase else 'mixed'}",
                f"space:{_yn(whitespace)}", f"eff:{_yn(not eps_smoothing)}"]
        super().__init__("chrf", "|".join(opts))
        self.char_order, self.word_order, self.beta = char_order, word_order, beta

    def _make(self, d: dict) -> CHRFScore:
        return CHRFScore(d["score"], self.char_order, self.word_order, self.beta)


class TER(_Metric):
    """sacrebleu's ``TER``, with its arguments and defaults."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Optional[Sequence[Sequence[str]]] = None) -> None:
        if references is not None:
            raise ValueError("references: mteval does not cache references; pass them to corpus_score")
        opts = [f"norm:{_yn(normalized)}", f"punct:{_yn(not no_punct)}", f"asian:{_yn(asian_support)}",
                f"case:{'mixed' if case_sensitive else 'lc'}"]
        super().__init__("ter", "|".join(opts))

    def _make(self, d: dict) -> TERScore:
        return TERScore(d["score"], d["num_edits"], d["ref_length"])


def _arrow_source(data: Any) -> Any:
    """An object with ``__arrow_c_stream__`` for ``data``: as it is when it has one,
    else through pyarrow (older pandas, lists of dicts are not accepted)."""
    if hasattr(data, "__arrow_c_stream__"):
        return data
    try:
        import pandas  # noqa: F401
        import pyarrow as pa
        if type(data).__module__.startswith("pandas"):
            return pa.Table.from_pandas(data, preserve_index=False)
    except ImportError:
        pass
    raise TypeError(f"expected an Arrow-compatible table (pyarrow, polars, pandas), got {type(data).__name__}")


def _table(stream: Any) -> Any:
    import pyarrow as pa
    return pa.table(stream)


def score(data: Any, metrics: Iterable[str], hyp: str = "hyp", refs: Iterable[str] = ("ref",),
          options: Optional[Mapping[str, str]] = None, terms: str = "terms", lemmas: str = "lemmas") -> Any:
    """``data`` (any Arrow-compatible table) with the per-row score columns of ``metrics``
    appended, as ``mteval score`` writes them (``bleu``, ``ter``, ``chrf``, ``chrfpp``,
    ``charac_ter``, ``term_acc``, ``term_acc_lemmatized``), as a ``pyarrow.Table``.
    ``options``: metric name -> mteval options (``{"ter": "norm:yes"}``). A NULL hypothesis
    or no reference gives NULL. ``term-acc`` reads the column ``terms`` (per row a list of
    terms, each a list of alternatives) instead of the references; ``term-acc-lemmatized``
    also reads ``lemmas`` (per row a list of ``{lemma, start, end}``)."""
    opts = [f"{m}={o}" for m, o in (options or {}).items()]
    return _table(_native.score(_arrow_source(data), list(metrics), hyp, list(refs), opts, terms, lemmas))


def sql(query: str) -> Any:
    """Runs ``query`` as ``mteval sql`` does (every mteval function; files queryable by
    path: ``FROM 'scores.parquet'``) and returns a ``pyarrow.Table``."""
    return _table(_native.sql(query))


def register(ctx: Any) -> None:
    """Registers every mteval scalar, aggregate and window function into a
    datafusion-python ``SessionContext`` (through datafusion-ffi)."""
    from datafusion import udaf, udf, udwf
    for f in _native.scalar_functions():
        ctx.register_udf(udf(f))
    for f in _native.aggregate_functions():
        ctx.register_udaf(udaf(f))
    for f in _native.window_functions():
        ctx.register_udwf(udwf(f))
