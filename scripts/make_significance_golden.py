#!/usr/bin/env python3
"""Writes tests/golden/significance.json: sacrebleu 2.6.0's paired significance tests and bootstrap
confidence intervals on the shared WMT sample, at full precision.

Each pair's systems are sorted by name (the first is the baseline), rows in seg_id order, references
from the baseline's rows (`ref`, and `ref2` for the two-reference cases). Paired tests run as sacrebleu's
CLI does: metrics built with references=refs, SACREBLEU_SEED set, then
PairedTest(named_systems, metrics, None, test_type, n_samples, n_ar_confidence)(). Confidence ('ci')
cases score the baseline alone with metric.corpus_score(hyps, None, n_bootstrap=N). Results keep every
bit: numpy float32 means and CIs are widened with float(); absent values are null. Each metric also
carries "mteval_options", the same options in mteval's signature syntax (see mteval_options below).

Note: PairedTest only seeds the non-baseline systems when the seed is truthy (`self._seed if self._seed
else None`), so seed 0 draws them from OS entropy; such cases carry "nondeterministic_systems": true.

The WER family (wer, mer, wil, wip; jiwer 4.0.0) runs as JiwerMetric below: a sacrebleu Metric whose
statistics are jiwer's counts and whose score is jiwer's arithmetic, which is what mteval's tests take it for.
Segment scores computed elsewhere (kind "score") run as ScoreColumn: statistics [value, 1.0], score
stats[0] / stats[1], over score columns made by seeded_score (which mteval's tests repeat).

Usage (an interpreter with sacrebleu 2.6.0 and jiwer 4.0.0, e.g. the oracle venv plus jiwer==4.0.0):
    python scripts/make_significance_golden.py [--out tests/golden/significance.json]
Data: $MTEVAL_SHARED_DIR/data/wmt (default ../shared). A few minutes (TER statistics dominate).
"""
import argparse, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, WMT_PAIRS, load_pair  # noqa: E402

import sacrebleu  # noqa: E402
from sacrebleu.metrics import BLEU, CHRF, TER  # noqa: E402
from sacrebleu.metrics.base import Metric, Score, Signature  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402
from sacrebleu.utils import sum_of_lists  # noqa: E402


class JiwerSignature(Signature):
    """mteval's WER signature in sacrebleu's format: nrefs, the test keys, unit, transform, version."""

    def __init__(self, args):
        super().__init__(args)
        self._abbr.update({"unit": "u", "transform": "t"})
        self.info.update({"unit": args["unit"], "transform": args["transform"]})
        self.info["version"] = "jiwer-4.0.0"


class JiwerMetric(Metric):
    """jiwer 4.0.0's WER family as a sacrebleu Metric, which is what mteval's significance tests take it
    for: per segment [H, S, D, I, N, P] against the reference with the fewest errors (the first on ties),
    and the score of summed statistics in jiwer's own arithmetic (process.py's tail, float() included),
    on whatever numbers sacrebleu's significance code hands it (Python ints, numpy int64 or float32)."""

    _SIGNATURE_TYPE = JiwerSignature

    def __init__(self, measure="wer", unit="word", transform="default", references=None):
        import jiwer
        import jiwer.transforms as tr
        super().__init__()
        self.measure, self.unit, self.transform = measure, unit, transform
        char_std = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(),
                               tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip(),
                               tr.ReduceToListOfListOfChars()])
        self._t = {("word", "default"): jiwer.wer_default, ("char", "default"): jiwer.cer_default,
                   ("word", "standardize"): jiwer.wer_standardize, ("char", "standardize"): char_std}[unit, transform]
        self._process = jiwer.process_words
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _preprocess_segment(self, sent):
        return sent

    def _extract_reference_info(self, refs):
        return {"refs": refs}

    def _compute_segment_statistics(self, hypothesis, ref_kwargs):
        best = None
        for r in ref_kwargs["refs"]:
            o = self._process(r, hypothesis, reference_transform=self._t, hypothesis_transform=self._t)
            st = [o.hits, o.substitutions, o.deletions, o.insertions, len(o.references[0]), len(o.hypotheses[0])]
            if best is None or sum(st[1:4]) < sum(best[1:4]):
                best = st
        return best

    def _compute_score_from_stats(self, stats):
        # jiwer 4.0.0 process.py's measures, on the summed counts.
        H, S, D, I, N, P = stats
        errors = S + D + I
        if N == 0:
            m = {"wer": I, "mer": 0 if P == 0 else 1, "wip": 1 if P == 0 else 0}
        else:
            m = {"wer": float(errors) / float(H + S + D), "mer": float(errors) / float(H + errors),
                 "wip": (float(H) / N) * (float(H) / P) if P >= 1 else 0}
        m["wil"] = 1 - m["wip"]
        name = "CER" if self.measure == "wer" and self.unit == "char" else self.measure.upper()
        return Score(name, m[self.measure])

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(sum_of_lists(stats))


class ScoreSignature(Signature):
    """mteval's segment-score signature in sacrebleu's format: score (the name), the test keys, agg, dir."""

    def __init__(self, args):
        super().__init__(args)
        self.info = {"version": None, "score": args["name"], "bs": self.info["bs"], "ar": None,
                     "seed": self.info["seed"], "agg": "mean", "dir": "lower" if args["lower"] else "higher"}
        self._abbr.update({"score": "score", "agg": "agg", "dir": "dir"})


class ScoreColumn(Metric):
    """A segment score computed elsewhere (COMET, human scores) as a sacrebleu Metric, as issue 40 defines
    mteval's: per segment [value, 1.0], the score of summed statistics stats[0] / stats[1], on whatever
    numbers sacrebleu's significance code hands it. `values` maps each system's hypothesis list (by id:
    PairedTest hands each metric the lists it was given) to its scores."""

    _SIGNATURE_TYPE = ScoreSignature

    def __init__(self, name, values, lower=False):
        super().__init__()
        self.name, self.values, self.lower = name, values, lower
        self.num_refs = 1

    def _extract_corpus_statistics(self, hypotheses, references):
        return [[v, 1.0] for v in self.values[id(hypotheses)]]

    def _check_corpus_score_args(self, hyps, refs):
        pass

    def _preprocess_segment(self, sent):
        raise NotImplementedError("a score column reads no text")

    _extract_reference_info = _compute_segment_statistics = _preprocess_segment

    def _compute_score_from_stats(self, stats):
        return Score(self.name, stats[0] / stats[1])

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(sum_of_lists(stats))


def seeded_score(formula, s, i):
    """Score `formula` of segment i (from 0) of the s-th system (sorted by name, from 0): integer arithmetic
    then one or two float operations, so that any language gets the same doubles. mteval's tests repeat it."""
    if formula == "frac":  # a COMET-like score in [0, 1)
        return ((i * 7919 + s * 104729) % 10007) / 10007
    if formula == "neg":  # a MetricX-like error in [-5, 20], lower is better
        return ((i * 31 + s * 977 + (i * i) % 13) % 2501) / 100.0 - 5.0
    raise ValueError(formula)


def jiwer_class(measure):
    return lambda references=None, **opts: JiwerMetric(measure, references=references, **opts)


CLASSES = {"bleu": BLEU, "chrf": CHRF, "ter": TER, **{m: jiwer_class(m) for m in ("wer", "mer", "wil", "wip")}}
# sacrebleu keyword -> (mteval key, value when True, value when False); other values printed with repr/str.
KEYS = {
    "bleu": {"tokenize": "tok", "smooth_method": "smooth", "smooth_value": "smooth_value",
             "lowercase": ("case", "lc", "mixed"), "effective_order": ("eff", "yes", "no"),
             "max_ngram_order": "ngram", "trg_lang": "trg_lang"},
    "chrf": {"char_order": "nc", "word_order": "nw", "beta": "beta", "lowercase": ("case", "lc", "mixed"),
             "whitespace": ("space", "yes", "no"), "eps_smoothing": ("eff", "no", "yes")},
    "ter": {"normalized": ("norm", "yes", "no"), "case_sensitive": ("case", "mixed", "lc"),
            "no_punct": ("punct", "no", "yes"), "asian_support": ("asian", "yes", "no")},
    **{m: {"unit": "unit", "transform": "transform"} for m in ("wer", "mer", "wil", "wip")},
}


def mteval_options(kind, opts):
    """The sacrebleu keyword arguments opts of metric kind (bleu, chrf, ter) in mteval's option syntax,
    e.g. ("bleu", {"tokenize": "intl", "smooth_method": "floor"}) -> "tok:intl|smooth:floor"."""
    if kind == "score":
        return f"score:{opts['formula']}|dir:{'lower' if opts.get('lower') else 'higher'}"
    out = []
    for k, v in opts.items():
        key = KEYS[kind][k]
        if isinstance(key, tuple):
            out.append(f"{key[0]}:{key[1] if v else key[2]}")
        else:
            out.append(f"{key}:{v!r}" if isinstance(v, float) else f"{key}:{v}")
    return "|".join(out)


def result_json(r):
    f = lambda x: None if x is None else float(x)  # noqa: E731
    return {"score": f(r.score), "p_value": f(r.p_value), "mean": f(r.mean), "ci": f(r.ci)}


def build(kind, opts, refs, hyp_lists):
    """The metric of spec (kind, opts); a "score" column gets seeded_score's scores for hyp_lists [hyps], in
    system order (sorted by name)."""
    if kind == "score":
        values = {id(h): [seeded_score(opts["formula"], s, i) for i in range(len(h))] for s, h in enumerate(hyp_lists)}
        return ScoreColumn(opts["formula"], values, opts.get("lower", False))
    return CLASSES[kind](**opts, references=refs)


def paired(named_systems, refs, specs, test, n, n_ar_confidence, seed):
    """sacrebleu's PairedTest over named_systems [(name, hyps)], baseline first, for the metrics specs
    [(kind, options)] (their score names must differ); returns the "metrics" list of a case."""
    os.environ["SACREBLEU_SEED"] = str(seed)
    lists = [h for _, h in named_systems]
    metrics = {str(i): build(kind, opts, refs, lists) for i, (kind, opts) in enumerate(specs)}
    ps = PairedTest(named_systems, metrics, references=None, test_type=test, n_samples=n,
                    n_ar_confidence=n_ar_confidence)
    sigs, scores = ps()
    assert len(ps.metrics) == len(specs), "two metrics share a score name"
    out = []
    for (kind, opts), m in zip(specs, metrics.values()):
        name = next(k for k, v in ps.metrics.items() if v is m)
        out.append({"kind": kind, "options": opts, "mteval_options": mteval_options(kind, opts), "name": name,
                    "signature": sigs[name].format(), "results": [result_json(r) for r in scores[name]]})
    return out


def confidence(hyps, refs, specs, n, seed):
    """Single-system bootstrap confidence (corpus_score with n_bootstrap=n) for each metric in specs."""
    os.environ["SACREBLEU_SEED"] = str(seed)
    out = []
    for kind, opts in specs:
        m = build(kind, opts, refs, [hyps])
        s = m.corpus_score(hyps, None, n_bootstrap=n)
        out.append({"kind": kind, "options": opts, "mteval_options": mteval_options(kind, opts), "name": s.name,
                    "signature": m.get_signature().format(),
                    "results": [{"score": float(s.score), "p_value": None, "mean": float(s._mean), "ci": float(s._ci)}]})
    return out


ALL4 = [("bleu", {}), ("chrf", {}), ("chrf", {"word_order": 2}), ("ter", {})]
ALL3 = [("bleu", {}), ("chrf", {}), ("ter", {})]


def plan():
    """(pair, test, n, n_ar_confidence, seed, reference columns, metric specs) of every case."""
    c = []
    c += [(p, "bs", 1000, -1, 12345, ["ref"], ALL4) for p in WMT_PAIRS]
    c += [(p, "ar", 10000, -1, 12345, ["ref"], ALL3) for p in WMT_PAIRS]
    c += [("en-de", "ar", 2000, 1000, 12345, ["ref"], [("bleu", {}), ("chrf", {})])]
    c += [("de-en", "bs", 500, -1, 42, ["ref"], [("bleu", {"tokenize": "intl", "smooth_method": "floor"}),
                                                 ("chrf", {"eps_smoothing": True}),
                                                 ("ter", {"normalized": True, "case_sensitive": True})]),
          ("de-en", "bs", 500, -1, 42, ["ref"], [("bleu", {"smooth_method": "add-k", "smooth_value": 0.5})])]
    c += [("de-en", "ar", 3000, -1, 7, ["ref"], [("bleu", {"smooth_method": "add-k", "smooth_value": 0.5})]),
          ("de-en", "ar", 3000, -1, 7, ["ref"], [("bleu", {"smooth_method": "floor", "smooth_value": 0.3})])]
    zh = [("bleu", {"tokenize": "zh"}), ("chrf", {}), ("ter", {"asian_support": True})]
    c += [("en-zh", "bs", 1000, -1, 2024, ["ref"], zh), ("en-zh", "ar", 5000, -1, 2024, ["ref"], zh)]
    c += [("zh-en", "bs", 1000, -1, 12345, ["ref", "ref2"], ALL3), ("zh-en", "ar", 5000, -1, 12345, ["ref", "ref2"], ALL3)]
    c += [("en-ja", "bs", 300, -1, s, ["ref"], [("chrf", {})]) for s in (0, 1)]
    c += [(p, "ci", 1000, -1, 12345, ["ref"], ALL4) for p in WMT_PAIRS]
    c += [("en-de", "ci", 400, -1, 99, ["ref"], ALL4)]
    # The WER family (jiwer's arithmetic on sacrebleu's resamples; lower is better, wip higher).
    wer4 = [("wer", {}), ("mer", {}), ("wil", {}), ("wip", {})]
    c += [(p, "bs", 1000, -1, 12345, ["ref"], wer4) for p in ("en-de", "zh-en")]
    c += [(p, "ar", 2000, -1, 12345, ["ref"], wer4) for p in ("de-en", "en-ja")]
    cer = [("wer", {"unit": "char"}), ("mer", {"unit": "char", "transform": "standardize"})]
    c += [("en-zh", "bs", 1000, -1, 7, ["ref"], cer), ("en-zh", "ar", 2000, -1, 7, ["ref"], cer)]
    c += [("zh-en", "bs", 500, -1, 12345, ["ref", "ref2"], [("wer", {"transform": "standardize"})])]
    c += [(p, "ci", 1000, -1, 12345, ["ref"], wer4) for p in ("en-de", "en-ja")]
    # Segment scores computed elsewhere (issue 40): seeded score columns, beside text metrics.
    frac, neg = ("score", {"formula": "frac"}), ("score", {"formula": "neg", "lower": True})
    c += [("en-de", "bs", 1000, -1, 12345, ["ref"], [frac, neg, ("bleu", {})]),
          ("de-en", "ar", 10000, -1, 12345, ["ref"], [frac, neg]),
          ("en-de", "ar", 2000, 1000, 12345, ["ref"], [frac, ("chrf", {})]),
          ("zh-en", "bs", 500, -1, 7, ["ref"], [frac, neg])]
    c += [("en-de", "ci", 1000, -1, 12345, ["ref"], [frac, neg]), ("en-ja", "ci", 400, -1, 99, ["ref"], [neg])]
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "golden", "significance.json"))
    args = ap.parse_args()
    assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
    from importlib.metadata import version
    assert version("jiwer") == "4.0.0", version("jiwer")
    t0 = time.time()
    data = {p: load_pair(p) for p in WMT_PAIRS}
    cases = []
    for pair, test, n, n_ar, seed, ref_cols, specs in plan():
        systems, hyps, ref, ref2 = data[pair]
        refs = [ref] if ref_cols == ["ref"] else [ref, ref2]
        case = {"pair": pair, "test": test, "n": n, "n_ar_confidence": n_ar, "seed": seed, "refs": ref_cols}
        if test == "ci":
            case["systems"] = systems[:1]
            case["metrics"] = confidence(hyps[systems[0]], refs, specs, n, seed)
        else:
            case["systems"] = systems
            case["metrics"] = paired([(s, hyps[s]) for s in systems], refs, specs, test, n, n_ar, seed)
        if seed == 0 and test != "ci":
            case["nondeterministic_systems"] = True
        cases.append(case)
        print(f"{time.time() - t0:7.1f}s {pair} {test} n={n} seed={seed} {[m['name'] for m in case['metrics']]}",
              file=sys.stderr)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"sacrebleu": sacrebleu.__version__, "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(cases)} cases in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
