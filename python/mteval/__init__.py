"""mteval: machine-translation evaluation with sacrebleu's, fastchrf's, cer's and jiwer's numbers, exactly, on all cores.

The calls have the shapes of the tools they replace::

    from mteval import BLEU, CHRF, TER                 # sacrebleu.metrics
    from mteval import pairwise_chrf, aggregate_chrf   # fastchrf
    from mteval import calculate_cer, calculate_cer_corpus  # cer
    from mteval import jiwer                           # jiwer 4.0: wer, cer, process_words, ...

and return the same numbers, computed by mteval's Rust kernels with the
interpreter released and the segments spread over all cores. Tables go
through the Arrow PyCapsule interface (pyarrow, polars, pandas >= 2.2):
``mteval.score(table, ["ter", "chrf"], hyp="hyp", refs=["ref"])`` appends the
per-row scores ``mteval score`` writes, ``mteval.compare(table, scores=["comet"])``
compares systems with sacrebleu's paired tests as ``mteval compare -f json`` does
(text metrics and segment scores computed elsewhere side by side), ``mteval.sql(query)`` runs a query the
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
    "TercomTokenizer",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "Score",
    "Signature",
    "pairwise_chrf",
    "aggregate_chrf",
    "calculate_cer",
    "calculate_cer_corpus",
    "score",
    "compare",
    "comet_compare",
    "meta",
    "sql",
    "register",
    "__version__",
]

__version__: str = _native.__version__

pairwise_chrf = _native.pairwise_chrf
aggregate_chrf = _native.aggregate_chrf


def _words(words: Any) -> Any:
    """cer's sequences of words: a string is iterated as cer iterates it, one character a word."""
    return list(words) if isinstance(words, str) else words


def calculate_cer(hyp_words, ref_words) -> float:
    """cer 1.2.0's ``calculate_cer(hyp_words, ref_words)``: the CharacTER of two sequences of words (any strings:
    cer joins them with one space for the character distance)."""
    return _native.calculate_cer(_words(hyp_words), _words(ref_words))


def calculate_cer_corpus(hyps, refs) -> dict:
    """cer 1.2.0's ``calculate_cer_corpus(hyps, refs)``: count, mean, median, std, min, max and cer_scores."""
    return _native.calculate_cer_corpus([_words(h) for h in hyps], [_words(r) for r in refs])


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


class Signature:
    """A signature as sacrebleu's ``Signature``: ``info`` (key -> value, in the signature's
    order), ``format(short=False)`` (``short=True`` abbreviates the keys as sacrebleu does:
    ``nrefs`` -> ``#``, ``version`` -> ``v``, ...), ``update(key, value)``; ``str()`` and
    ``repr()`` are the long form, and a signature equals its long form as a string."""

    _ABBR = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o",
             "bs": "bs", "ar": "ar", "seed": "rs"}

    def __init__(self, text: str, abbr: Optional[Mapping[str, str]] = None) -> None:
        self.info: dict = {}
        for part in text.split("|"):
            key, _, value = part.partition(":")
            self.info[key] = value
        self._abbr = {**self._ABBR, **(abbr or {})}

    def format(self, short: bool = False) -> str:
        """The signature as text; ``short``: with sacrebleu's abbreviated keys."""
        tail = [k for k in ("version", "impl") if k in self.info]
        keys = [k for k in self.info if k not in tail] + tail
        pairs = []
        for k in keys:
            v = self.info[k]
            if v is None:
                continue
            if isinstance(v, bool):
                v = "yes" if v else "no"
            pairs.append(f"{self._abbr.get(k, k) if short else k}:{v}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Adds an item or replaces one (``None`` leaves it out of the text)."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Signature):
            return self.format() == other.format()
        if isinstance(other, str):
            return self.format() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.format())


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


class _NoReference(IndexError, ValueError):
    """No segment has a reference: sacrebleu's IndexError (indexing the empty reference list), still a ValueError."""


class _UnknownTokenizer(KeyError, ValueError):
    """An unknown tokenizer: sacrebleu's KeyError (its tokenizer table), still a ValueError."""

    def __str__(self) -> str:
        return ValueError.__str__(self)


class _UnknownSmoothing(AssertionError, ValueError):
    """An unknown smoothing method: sacrebleu's AssertionError, still a ValueError."""


class _MeCabUnavailable(RuntimeError, ValueError):
    """A MeCab tokenizer (ja-mecab, ko-mecab), which mteval does not ship: sacrebleu's RuntimeError where its extra
    dependencies are missing, still a ValueError."""


class _SentencePieceUnavailable(ImportError, ValueError):
    """A SentencePiece tokenizer (spm, flores101, flores200), which mteval does not ship: sacrebleu's ImportError
    where sentencepiece is missing, still a ValueError."""


def _refusal(msg: str) -> Optional[type]:
    """The exception sacrebleu raises for the option mteval's message refuses, if it is not a ValueError."""
    if "is not supported" in msg:
        low = msg.lower()
        return _MeCabUnavailable if "mecab" in low else _SentencePieceUnavailable if "sentencepiece" in low else None
    return _UnknownTokenizer if ": tok:" in msg else _UnknownSmoothing if ": smooth:" in msg else None


class _Metric:
    """What sacrebleu's metrics share: ``sentence_score``, ``corpus_score``, ``get_signature``."""

    # The CLI's and SQL's way to raise a limit, and this class's way.
    _limit_hints: tuple[tuple[str, str], ...] = ()

    def __init__(self, name: str, options: str) -> None:
        try:
            self._native = _native.Metric(name, options)
        except ValueError as e:
            kind = _refusal(str(e))
            if kind is None:
                raise
            raise kind(str(e)) from None
        self.num_refs = 0

    def _corpus(self, hypotheses: list, streams: list) -> dict:
        try:
            return self._native.corpus(hypotheses, streams)
        except ValueError as e:
            msg = str(e)
            if msg.startswith("no segment to score"):
                raise _NoReference(msg) from None
            for cli, here in self._limit_hints:
                msg = msg.replace(cli, here)
            if msg == str(e):
                raise
            raise ValueError(msg) from None

    def _make(self, d: dict) -> Score:
        raise NotImplementedError

    # sacrebleu's reference-nesting trap is warned about once per process.
    _nesting_warned = False

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[Optional[str]]]],
                     strict: bool = False) -> Score:
        """The corpus score of ``hypotheses`` against the reference streams ``references``
        (sacrebleu's shape: one list per reference, each as long as the hypotheses;
        ``None`` marks a missing reference, but every segment needs at least one).

        References nested wrongly (one list of sentences instead of ``[refs]``, or streams of
        other lengths than the hypotheses) get sacrebleu's number, which it gives without an error
        (its ``zip`` stops at the shortest stream, a string's characters become references:
        sacrebleu#220, #275, #281), with a ``UserWarning`` (once); ``strict=True`` raises instead."""
        if references is None:
            raise ValueError("references are required: mteval does not cache references")
        if isinstance(hypotheses, str):
            raise TypeError("hypotheses must be a list of strings, not a string")
        if isinstance(references, str):
            raise TypeError("references must be a list of reference streams, each a list of strings as long as "
                            "the hypotheses: [refs] for one reference, [refs1, refs2] for two (sacrebleu's shape)")
        hyps = list(hypotheses)
        refs = list(references)
        if not refs:
            raise ValueError("references: give at least one reference stream")
        if any(isinstance(s, str) for s in refs):
            msg = ("references look like one list of sentences: each element of references must be a reference "
                   "stream (a list of strings as long as the hypotheses): [refs] for one reference, [refs1, refs2] "
                   "for two (sacrebleu's shape)")
            if strict:
                raise TypeError(msg)
            self._warn_nesting(msg + "; sacrebleu reads each sentence as a stream of characters and scores that "
                               "without an error, and so does this call (strict=True raises)")
        else:
            for k, s in enumerate(refs):
                if len(s) != len(hyps):
                    msg = (f"reference stream {k + 1} of {len(refs)} has {len(s)} segments but there are "
                           f"{len(hyps)} hypotheses")
                    if strict:
                        raise ValueError(msg)
                    self._warn_nesting(msg + "; sacrebleu scores only the segments up to the shortest of them "
                                       "without an error, and so does this call (strict=True raises)")
                    break
        # sacrebleu's reading: segments zipped across the streams, up to the shortest.
        segs = list(zip(*refs))
        n = min(len(hyps), len(segs))
        hyps = hyps[:n]
        streams = [list(col) for col in zip(*segs[:n])] if n else [[] for _ in refs]
        counts = [sum(1 for s in streams if s[i] is not None) for i in range(len(hyps))]
        if 0 in counts:
            i = counts.index(0)
            raise ValueError(f"segment {i} (counting from 0) has no reference: every reference stream has None there "
                             "(sacrebleu fails on such a segment too); drop the segment or give a reference")
        kinds = set(counts)
        self.num_refs = kinds.pop() if len(kinds) == 1 else -1
        return self._make(self._corpus(hyps, streams))

    @classmethod
    def _warn_nesting(cls, msg: str) -> None:
        if not _Metric._nesting_warned:
            _Metric._nesting_warned = True
            import warnings
            warnings.warn(msg, UserWarning, stacklevel=3)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        """The score of one hypothesis against its references."""
        if isinstance(references, str):
            raise TypeError("references must be a list of strings, not a string")
        self.num_refs = len(references)
        return self._make(self._corpus([hypothesis], [[r] for r in references]))

    # sacrebleu's abbreviations of the metric's own signature keys.
    _SIGNATURE_ABBR: Mapping[str, str] = {}

    def get_signature(self) -> Signature:
        """The signature, as sacrebleu's (plus ``impl:``), as a ``Signature``
        (``.format(short=True)`` for the short form): known once the metric has scored."""
        if self.num_refs == 0:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return Signature(self._native.signature(self.num_refs), self._SIGNATURE_ABBR)


class BLEU(_Metric):
    """sacrebleu's ``BLEU``, with its arguments and defaults (``tokenize=None`` picks
    13a, or zh for ``trg_lang='zh'``; ja-mecab, ko-mecab and the SentencePiece
    tokenizers are a ``ValueError``: mteval ships no models)."""

    _SIGNATURE_ABBR = {"case": "c", "eff": "e", "tok": "tok", "smooth": "s"}

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
        if self._add_k is not None:
            _add_k(counts, totals, self._add_k)
        return BLEUScore(d["score"], counts, totals, d["precisions"], d["bp"], d["sys_len"], d["ref_len"])

    @staticmethod
    def compute_bleu(correct: list, total: list, sys_len: int, ref_len: int, smooth_method: str = "none",
                     smooth_value: Optional[float] = None, effective_order: bool = False,
                     max_ngram_order: int = 4) -> BLEUScore:
        """sacrebleu's ``BLEU.compute_bleu``: BLEU from its statistics (``correct`` and ``total``
        n-gram counts, one per order, and the lengths), in sacrebleu's arithmetic. As sacrebleu,
        ``add-k`` adds its value to the lists given (from the second order on) and reports them."""
        for name, counts in (("correct", correct), ("total", total)):
            if any(not float(c).is_integer() or c < 0 for c in counts):
                raise ValueError(f"{name}: n-gram counts are whole numbers >= 0, got {list(counts)}")
        d = _native.compute_bleu([int(c) for c in correct], [int(c) for c in total], int(sys_len), int(ref_len),
                                 smooth_method, None if smooth_value is None else float(smooth_value),
                                 effective_order, max_ngram_order)
        if smooth_method == "add-k":
            _add_k(correct, total, 1 if smooth_value is None else smooth_value)
        return BLEUScore(d["score"], correct, total, d["precisions"], d["bp"], sys_len, ref_len)


def _add_k(counts: list, totals: list, k: float) -> None:
    """What sacrebleu's ``compute_bleu`` does to the lists it reports under ``add-k``: ``k`` added
    order by order from the second, up to the first order with no n-gram (none when no n-gram
    matched)."""
    if not any(counts):
        return
    for n in range(1, len(totals) + 1):
        if n > 1:
            counts[n - 1] += k
            totals[n - 1] += k
        if totals[n - 1] == 0:
            break


class CHRF(_Metric):
    """sacrebleu's ``CHRF`` (``word_order=2`` is chrF++), with its arguments and defaults."""

    _SIGNATURE_ABBR = {"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"}

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
    """sacrebleu's ``TER``, with its arguments and defaults. ``max_words`` (mteval's, not
    sacrebleu's) raises the length limit of a segment (5,000 words after tokenization by
    default: TER's time and memory grow with the square of the length)."""

    _limit_hints = (("option max_words:N raises the limit", "TER(max_words=N) raises the limit"),)
    _SIGNATURE_ABBR = {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"}

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Optional[Sequence[Sequence[str]]] = None,
                 max_words: Optional[int] = None) -> None:
        if references is not None:
            raise ValueError("references: mteval does not cache references; pass them to corpus_score")
        opts = [f"norm:{_yn(normalized)}", f"punct:{_yn(not no_punct)}", f"asian:{_yn(asian_support)}",
                f"case:{'mixed' if case_sensitive else 'lc'}"]
        if max_words is not None:
            opts.append(f"max_words:{max_words}")
        super().__init__("ter", "|".join(opts))

    def _make(self, d: dict) -> TERScore:
        return TERScore(d["score"], d["num_edits"], d["ref_length"])


class TercomTokenizer:
    """sacrebleu's ``TercomTokenizer`` (``sacrebleu.tokenizers.tokenizer_ter``): TER's
    tokenization with its options, the words joined by single spaces."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> None:
        opts = [f"norm:{_yn(normalized)}", f"punct:{_yn(not no_punct)}", f"asian:{_yn(asian_support)}",
                f"case:{'mixed' if case_sensitive else 'lc'}"]
        self._ter = _native.Metric("ter", "|".join(opts))

    def __call__(self, sent: str) -> str:
        return self._ter.tokenize(sent) if sent else ""

    def signature(self) -> str:
        return "tercom"


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


def score(data: Any, metrics: "str | Iterable[str]", hyp: str = "hyp", refs: "str | Iterable[str]" = ("ref",),
          options: "Optional[Mapping[str, str] | str]" = None, terms: str = "terms", lemmas: str = "lemmas") -> Any:
    """``data`` (any Arrow-compatible table) with the per-row score columns of ``metrics``
    appended, as ``mteval score`` writes them (``bleu``, ``ter``, ``chrf``, ``chrfpp``,
    ``charac_ter``, ``term_acc``, ``term_acc_lemmatized``), as a ``pyarrow.Table``.
    ``metrics`` and ``refs`` take a list of names or one name; ``options``: metric name ->
    mteval options (``{"ter": "norm:yes"}``), or one string with one metric. A NULL hypothesis
    or no reference gives NULL. Each score column's signature is in the table's schema
    metadata under ``mteval.signature.<column>``, as ``mteval score`` writes it to Parquet. ``term-acc`` reads the column ``terms`` (per row a list of
    terms, each a list of alternatives) instead of the references; ``term-acc-lemmatized``
    also reads ``lemmas`` (per row a list of ``{lemma, start, end}``)."""
    metrics = _names("metrics", metrics)
    refs = _names("refs", refs)
    for name, value in (("hyp", hyp), ("terms", terms), ("lemmas", lemmas)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a column name (a string), got {type(value).__name__}")
    if isinstance(options, str):
        if len(metrics) != 1:
            raise ValueError(f"options as one string applies to one metric, but {len(metrics)} are given; "
                             "give a dict of metric name -> options")
        options = {metrics[0]: options}
    elif options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of metric name -> options (or one string for one metric), "
                        f"got {type(options).__name__}")
    opts = [f"{m}={o}" for m, o in (options or {}).items()]
    return _table(_native.score(_arrow_source(data), metrics, hyp, refs, opts, terms, lemmas))


def compare(data: Any, metrics: "Optional[str | Iterable[str]]" = None, scores: "str | Iterable[str]" = (),
            system: Optional[str] = "system", hyp: str = "hyp", refs: "str | Iterable[str]" = ("ref",),
            segment: Optional[str] = None, baseline: Optional[str] = None, test: Optional[str] = "bs",
            n: Optional[int] = None, ar_confidence_n: Optional[int] = None, seed: "Optional[int | str]" = None,
            options: "Optional[Mapping[str, str]]" = None) -> list:
    """Systems compared as ``mteval compare TABLE -f json`` compares them: ``data`` (any
    Arrow-compatible table) has a row per system and segment; ``metrics`` are text metrics
    (default BLEU, as sacrebleu, unless ``scores`` are given), ``scores`` are number
    columns of segment scores computed elsewhere (COMET, MetricX, human judgements), each compared
    as a metric whose corpus score is the mean (``"metricx:lower"`` where lower is better).
    ``test``: ``"bs"`` (sacrebleu's paired bootstrap, ``n`` resamples, default 1000), ``"ar"``
    (approximate randomization, ``n`` trials, default 10000; ``ar_confidence_n`` adds bootstrap
    intervals) or ``None`` (corpus scores only). ``seed``: an integer, or ``"none"`` for a fresh
    one; default ``SACREBLEU_SEED``, else 12345, as sacrebleu. The baseline is ``baseline``, else
    the table's first system; ``segment`` aligns the systems' rows (else their order).
    Returns sacrebleu's JSON list as Python objects: per system a dict, ``system`` first, then per
    metric (by its display name: ``BLEU``, ``chrF2``, ``TER``, a score column's name) a dict of
    ``score``, ``p_value``, ``mean``, ``ci`` and ``signature``."""
    import json
    metrics = [] if metrics is None else _names("metrics", metrics)
    scores = _names("scores", scores)
    refs = _names("refs", refs)
    for name, value in (("hyp", hyp),):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a column name (a string), got {type(value).__name__}")
    for name, value in (("system", system), ("segment", segment), ("baseline", baseline), ("test", test)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a string or None, got {type(value).__name__}")
    for name, value in (("n", n), ("ar_confidence_n", ar_confidence_n)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise TypeError(f"seed must be an integer or 'none', got {type(seed).__name__}")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of metric name -> options, got {type(options).__name__}")
    opts = [f"{m}={o}" for m, o in (options or {}).items()]
    out = _native.compare(_arrow_source(data), metrics, scores, system, hyp, refs, segment, baseline, test, n,
                          ar_confidence_n, None if seed is None else str(seed), opts)
    return json.loads(out)


def comet_compare(scores: "Mapping[str, Sequence[float]] | Sequence[Sequence[float]]",
                  names: "Optional[Sequence[str]]" = None, *, seed: int = 12, num_splits: int = 300,
                  sample_ratio: float = 0.4, t_test_alternative: str = "two-sided",
                  lower_is_better: bool = False) -> dict:
    """comet-compare's statistics (Unbabel COMET's ``comet-compare``), with its numbers: for every
    pair of systems (``itertools.combinations`` order) a paired t-test (``scipy.stats.ttest_rel``
    on the ``float32`` scores) and bootstrap resampling (numpy's global state seeded with ``seed``,
    ``num_splits`` splits of ``max(int(n * sample_ratio), 1)`` segments, ties within 0.001).

    ``scores``: per system its segment scores, a dict of name -> scores (in its order) or a list of
    score lists with ``names`` (default ``sys0``, ``sys1``, ...). Returns a dict:
    ``statistical_results`` (per pair comet-compare's dict: ``x_name``, ``y_name``,
    ``bootstrap_resampling`` with ``x-mean``, ``y-mean``, ``ties (%)``, ``x_wins (%)``,
    ``y_wins (%)``, and ``paired_t-test`` with ``statistic`` and ``p_value``), ``summary`` (the
    grid of ``t_tests_summary``: ``summary[i][j]`` is True where system i is significantly better
    than j, None on the diagonal; with ``lower_is_better`` the lower mean is the better one),
    ``systems`` and ``sample_size``."""
    if isinstance(scores, Mapping):
        if names is not None:
            raise TypeError("names: give the system names as the dict's keys or as names=, not both")
        names = [str(k) for k in scores]
        columns = [list(v) for v in scores.values()]
    else:
        columns = [list(v) for v in scores]
        names = [f"sys{i}" for i in range(len(columns))] if names is None else [str(n) for n in names]
        if len(names) != len(columns):
            raise ValueError(f"names: {len(names)} names for {len(columns)} systems")
    for name, value in (("seed", seed), ("num_splits", num_splits)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    if seed > 2**32 - 1:
        raise ValueError(f"seed must be below 2**32 (numpy's legacy seeding), got {seed}")
    try:
        columns = [[float(x) for x in c] for c in columns]
    except (TypeError, ValueError) as e:
        raise TypeError(f"scores must be numbers: {e}") from None
    sample_size, pairs, grid = _native.comet_compare(columns, seed, num_splits, float(sample_ratio),
                                                     t_test_alternative, bool(lower_is_better))
    results = [
        {
            "x_name": names[x],
            "y_name": names[y],
            "bootstrap_resampling": {"x-mean": xm, "y-mean": ym, "ties (%)": ties, "x_wins (%)": xw,
                                     "y_wins (%)": yw},
            "paired_t-test": {"statistic": t, "p_value": p},
        }
        for x, y, xm, ym, ties, xw, yw, t, p in pairs
    ]
    return {"systems": names, "sample_size": sample_size, "statistical_results": results, "summary": grid}


def meta(data: Any = None, *, mtme: Optional[str] = None, test_set: Optional[str] = None,
         lps: "Optional[str | Iterable[str]]" = None, tasks: Optional[str] = None, gold: Optional[str] = None,
         metrics: "Optional[str | Iterable[str]]" = None, system: Optional[str] = None,
         segment: Optional[str] = None, lp: Optional[str] = None, corr: Optional[str] = None,
         level: Optional[str] = None, average_by: Optional[str] = None, variant: Optional[str] = None,
         epsilon: Optional[float] = None, sample_rate: Optional[float] = None, pdp: bool = False,
         perm_test: Optional[str] = None, k: int = 1000, seed: int = 12345, block_size: Optional[int] = None,
         pval: Optional[float] = None, primary: bool = False, use_outliers: bool = False,
         exclude: "str | Iterable[str]" = (), include_human: bool = False, mtme_gold: Optional[str] = None,
         mtme_ref: Optional[str] = None) -> dict:
    """Metrics ranked against human judgements as ``mteval meta ... --json`` ranks them
    (mt-metrics-eval's numbers): ``data`` is a table (a path, or any Arrow-compatible table) with
    a row per system and segment, the gold score ``gold`` (default ``"gold"``) and a number
    column per metric (``metrics``, default every other one); or ``mtme`` is mt-metrics-eval's
    data root, read for ``test_set`` and ``lps`` (a list, a comma-separated string or
    ``"all"``). ``tasks`` (``"wmt23"``, ``"wmt24"``, ``"wmt25"``) runs that task set over every
    language pair (``lp``: a table's language pair column) and returns its final table:
    ``tasks`` (per task ``lp``, ``level``, ``corr_fcn``, ``metrics`` {name: {corr, rank}}),
    ``average`` ({name: {corr, rank, avg_rank}}); without it, one language pair's WMT23 tasks,
    or the one task ``corr`` names (``level``, ``average_by``, ``variant``, ``epsilon``,
    ``sample_rate``, ``pdp``, ``perm_test``). ``k`` resampling runs per pair of metrics from
    ``np.random.seed(seed)``. Bad arguments raise ``ValueError`` with the CLI's message."""
    import json
    settings = []

    def flag(name: str, value: Any) -> None:
        if value is None or value is False:
            return
        if value is True:
            settings.append((name, "true"))
            return
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise TypeError(f"{name.replace('-', '_')} must be a string or a number, got {type(value).__name__}")
        settings.append((name, str(value)))

    source = None
    if data is not None:
        if isinstance(data, str):
            flag("input", data)
        else:
            source = _arrow_source(data)
            flag("input", "the table")
    if lps is not None and not isinstance(lps, str):
        lps = ",".join(_names("lps", lps))
    for name, value in (("mtme", mtme), ("mtme-test-set", test_set), ("mtme-lp", lps), ("tasks", tasks),
                        ("gold", gold), ("system-col", system), ("segment-col", segment), ("lp-col", lp),
                        ("corr", corr), ("level", level), ("average-by", average_by),
                        ("variant", variant), ("epsilon", epsilon), ("sample-rate", sample_rate),
                        ("pdp", pdp), ("perm-test", perm_test), ("k", k), ("seed", seed),
                        ("block-size", block_size), ("pval", pval), ("primary", primary),
                        ("use-outliers", use_outliers), ("include-human", include_human),
                        ("mtme-gold", mtme_gold), ("mtme-ref", mtme_ref)):
        flag(name, value)
    for m in [] if metrics is None else _names("metrics", metrics):
        flag("metric", m)
    for e in _names("exclude", exclude):
        flag("exclude", e)
    return json.loads(_native.meta(settings, source))


def _names(what: str, value: Any) -> list:
    """A list of names from a list (or tuple, ...) of strings, or from one string."""
    if isinstance(value, str):
        return [value]
    try:
        names = list(value)
    except TypeError:
        raise TypeError(f"{what} must be a string or a list of strings, got {type(value).__name__}") from None
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{what} must be strings, got {type(n).__name__} {n!r}")
    return names


def sql(query: str, partitions: int = 1) -> Any:
    """Runs ``query`` as ``mteval sql`` does (every mteval function; files queryable by
    path: ``FROM 'scores.parquet'``) and returns a ``pyarrow.Table``.

    ``partitions`` is ``mteval sql --partitions``: DataFusion's partitions
    (``datafusion.execution.target_partitions``). The default, 1, is the CLI's: it keeps the
    input order, so that an order-dependent result (``corpus_bootstrap`` and ``paired_test``
    without ``ORDER BY``, corpus TER over 3 or more references, ``mbr_chrf`` means, float sums)
    is the same on every call and equals the CLI's. More partitions parallelise scans, joins
    and sorts; such results then need ``ORDER BY`` inside the aggregate to be reproducible."""
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if isinstance(partitions, bool) or not isinstance(partitions, int):
        raise TypeError(f"partitions must be an integer, got {type(partitions).__name__}")
    return _table(_native.sql(query, partitions))


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
