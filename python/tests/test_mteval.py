"""The Python API against the shared golden files and against sacrebleu 2.6.0, fastchrf 0.2.1 and cer 1.2.0
themselves (installed in the test venv), on the shared WMT rows and on random inputs; datafusion-python
queries with every kind of mteval function; errors.

Run: MTEVAL_SHARED_DIR=/path/to/shared python -m pytest python/tests (after installing the wheel)."""

import json
import os
import random
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import mteval

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("MTEVAL_SHARED_DIR", ROOT.parent / "shared"))
PAIRS = ["en-de", "de-en", "en-zh", "zh-en", "en-ja"]
TER_VARIANTS = {
    "default": {},
    "case_sensitive": {"case_sensitive": True},
    "normalized": {"normalized": True},
    "no_punct": {"no_punct": True},
    "asian_support": {"asian_support": True},
    "no_punct_asian": {"no_punct": True, "asian_support": True},
    "normalized_asian": {"normalized": True, "asian_support": True},
    "all": {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
}
CHRF_VARIANTS = {
    "chrf": {},
    "chrf_eps": {"eps_smoothing": True},
    "chrfpp": {"word_order": 2},
    "chrfpp_eps": {"word_order": 2, "eps_smoothing": True},
}


def jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def golden(name):
    return jsonl(SHARED / "data" / "golden" / name)


_SYSTEMS = {}


def system_rows(pair, system):
    """The rows of one system of one pair, in seg_id order (the golden files' order)."""
    if pair not in _SYSTEMS:
        by = {}
        for r in jsonl(SHARED / "data" / "wmt" / f"{pair}.jsonl"):
            by.setdefault(r["system"], []).append(r)
        for rows in by.values():
            rows.sort(key=lambda r: r["seg_id"])
        _SYSTEMS[pair] = by
    return _SYSTEMS[pair][system]


def streams(rows, refs):
    return [[r[c] for r in rows] for c in refs.split("+")]


# --- golden files ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, count, metric, variants, fields", [
    ("ter", 216, mteval.TER, TER_VARIANTS, ("score", "num_edits", "ref_length")),
    ("chrf", 108, mteval.CHRF, CHRF_VARIANTS, ("score",)),
], ids=["ter", "chrf"])
def test_corpus_golden(name, count, metric, variants, fields):
    """NAME_corpus.jsonl: COUNT corpus scores, each of a variant's options; the result's FIELDS must be equal."""
    cases = golden(f"{name}_corpus.jsonl")
    assert len(cases) == count
    for g in cases:
        rows = system_rows(g["pair"], g["system"])
        s = metric(**variants[g["variant"]]).corpus_score([r["hyp"] for r in rows], streams(rows, g["refs"]))
        assert tuple(getattr(s, f) for f in fields) == tuple(g[f] for f in fields), g


def test_ter_and_chrf_sentence_golden():
    ter, chrf, chrfpp = mteval.TER(), mteval.CHRF(), mteval.CHRF(word_order=2)
    ters = {(g["pair"], g["system"], g["seg_id"]): g for g in golden("ter_sentence.jsonl")}
    n = 0
    for g in golden("chrf_sentence.jsonl"):
        row = next(r for r in system_rows(g["pair"], g["system"]) if r["seg_id"] == g["seg_id"])
        assert chrf.sentence_score(row["hyp"], [row["ref"]]).score == g["chrf"]["chrf"]
        assert chrfpp.sentence_score(row["hyp"], [row["ref"]]).score == g["chrf"]["chrfpp"]
        t = ters[(g["pair"], g["system"], g["seg_id"])]
        want = t["ter"]["default"][0]
        assert ter.sentence_score(row["hyp"], [row["ref"]]).score == want
        n += 1
        if n == 600:
            break


def test_cer_corpus_golden():
    cases = golden("cer_corpus.jsonl")
    assert len(cases) == 27
    for g in cases:
        rows = system_rows(g["pair"], g["system"])
        got = mteval.calculate_cer_corpus([r["hyp"].split() for r in rows], [r[g["refs"]].split() for r in rows])
        for k in ("count", "mean", "median", "std", "min", "max"):
            assert got[k] == g[k], (g, k)


def test_fastchrf_golden():
    for g in golden("fastchrf_mbr.jsonl"):
        kw = {"default": {}, "eps_smoothing": {"eps_smoothing": True},
              "keep_whitespace": {"remove_whitespace": False}}[g["variant"]]
        assert mteval.pairwise_chrf([g["hyps"]], [g["refs"]], **kw)[0] == g["pairwise"], g["group_id"]
        assert mteval.aggregate_chrf([g["hyps"]], [g["refs"]], **kw)[0] == g["aggregate"], g["group_id"]


# --- against the reference tools -------------------------------------------------------------------------------

def wmt_rows(limit=None):
    rows = []
    for pair in PAIRS:
        rows += jsonl(SHARED / "data" / "wmt" / f"{pair}.jsonl")
    return rows[:limit] if limit else rows


def noisy(rng, s):
    words = s.split()
    ops = rng.randrange(4)
    for _ in range(ops):
        if not words:
            break
        i = rng.randrange(len(words))
        choice = rng.randrange(4)
        if choice == 0:
            del words[i]
        elif choice == 1:
            words.insert(i, rng.choice(words))
        elif choice == 2:
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        else:
            words[i] = words[i].upper()
    extra = rng.choice(["", " ", "  ", "\t", " — «ß» 中文。", " 1,000.5 -- x", " &amp; <b>"])
    return " ".join(words) + extra


@pytest.mark.parametrize("seed", [1, 2])
def test_sacrebleu_corpus_and_sentence_on_random_rows(seed):
    from sacrebleu.metrics import BLEU, CHRF, TER
    rng = random.Random(seed)
    rows = rng.sample(wmt_rows(), 300)
    hyps = [noisy(rng, r["hyp"]) for r in rows]
    refs = [[r["ref"] for r in rows], [r["ref2"] if rng.random() < 0.8 else None for r in rows]]
    configs = [
        (BLEU, mteval.BLEU, {}), (BLEU, mteval.BLEU, {"tokenize": "intl", "lowercase": True}),
        (BLEU, mteval.BLEU, {"smooth_method": "floor", "smooth_value": 0.2, "max_ngram_order": 3}),
        (BLEU, mteval.BLEU, {"tokenize": "zh", "effective_order": True}),
        (BLEU, mteval.BLEU, {"tokenize": "char", "smooth_method": "add-k"}),
        (CHRF, mteval.CHRF, {}), (CHRF, mteval.CHRF, {"word_order": 2, "lowercase": True}),
        (CHRF, mteval.CHRF, {"whitespace": True, "eps_smoothing": True, "beta": 3}),
        (TER, mteval.TER, {}), (TER, mteval.TER, {"normalized": True, "asian_support": True}),
        (TER, mteval.TER, {"no_punct": True, "case_sensitive": True}),
    ]
    for ref_cls, our_cls, kw in configs:
        theirs, ours = ref_cls(**kw), our_cls(**kw)
        a, b = theirs.corpus_score(hyps, refs), ours.corpus_score(hyps, refs)
        assert b.score == a.score, (ref_cls.__name__, kw)
        assert str(b) == str(a), (ref_cls.__name__, kw)
        if hasattr(a, "counts"):
            assert (b.counts, b.totals, b.precisions, b.bp, b.sys_len, b.ref_len) == \
                   (a.counts, a.totals, a.precisions, a.bp, a.sys_len, a.ref_len)
        if hasattr(a, "num_edits"):
            assert (b.num_edits, b.ref_length) == (a.num_edits, a.ref_length)
        # sacrebleu's signature, plus `impl:` (and BLEU's `ngram:N` / chrF's `beta:B` when not the
        # default, which sacrebleu's signature omits: mteval's pastes back as the same options).
        impl = f"|impl:mteval-{mteval.__version__}"
        for short in (False, True):
            sig = re.sub(r"\|(ngram|beta):\d+", "", ours.get_signature().format(short=short))
            assert sig == theirs.get_signature().format(short=short) + impl, (sig, kw)
        assert ours.get_signature() == str(ours.get_signature()) and isinstance(ours.get_signature(), mteval.Signature)
        for h, r1, r2 in list(zip(hyps, *refs))[:60]:
            r = [x for x in (r1, r2) if x is not None]
            assert ours.sentence_score(h, r).score == theirs.sentence_score(h, r).score, (ref_cls.__name__, kw, h)


def test_fastchrf_on_random_groups():
    import fastchrf
    rng = random.Random(3)
    rows = wmt_rows()
    for kw in ({}, {"eps_smoothing": True}, {"remove_whitespace": False, "char_order": 4, "beta": 1.0}):
        batch_h, batch_r = [], []
        for _ in range(6):
            base = rng.choice(rows)["hyp"]
            batch_h.append([noisy(rng, base) for _ in range(rng.randrange(1, 12))])
            batch_r.append([noisy(rng, base) for _ in range(rng.randrange(1, 9))])
        assert mteval.pairwise_chrf(batch_h, batch_r, **kw) == fastchrf.pairwise_chrf(batch_h, batch_r, **kw)
        assert mteval.aggregate_chrf(batch_h, batch_r, **kw) == fastchrf.aggregate_chrf(batch_h, batch_r, **kw)


def test_cer_on_random_rows():
    import cer
    rng = random.Random(4)
    rows = rng.sample(wmt_rows(), 400)
    hyps = [noisy(rng, r["hyp"]).split() for r in rows]
    refs = [r["ref"].split() for r in rows]
    for h, r in zip(hyps[:100], refs):
        assert mteval.calculate_cer(h, r) == cer.calculate_cer(h, r), (h, r)
    assert mteval.calculate_cer_corpus(hyps, refs) == cer.calculate_cer_corpus(hyps, refs)


# --- tables, SQL, datafusion-python ----------------------------------------------------------------------------

def table_of(pair):
    return pq.read_table(SHARED / "data" / "wmt" / f"{pair}.parquet")


def test_score_appends_the_cli_columns_without_touching_the_table():
    t = table_of("en-de")
    out = mteval.score(t, ["bleu", "ter", "chrf", "chrf++"], hyp="hyp", refs=["ref"])
    assert out.column_names == t.column_names + ["bleu", "ter", "chrf", "chrfpp"]
    assert out.select(t.column_names).equals(t)
    from sacrebleu.metrics import BLEU, CHRF, TER
    bleu, ter, chrf = BLEU(effective_order=True), TER(), CHRF()
    for i in range(0, t.num_rows, 37):
        h, r = t["hyp"][i].as_py(), t["ref"][i].as_py()
        assert out["bleu"][i].as_py() == bleu.sentence_score(h, [r]).score
        assert out["ter"][i].as_py() == ter.sentence_score(h, [r]).score
        assert out["chrf"][i].as_py() == chrf.sentence_score(h, [r]).score


def test_score_equals_the_sentence_golden_files_on_every_golden_row():
    ters = {(g["pair"], g["system"], g["seg_id"]): g for g in golden("ter_sentence.jsonl")}
    chrfs = {(g["pair"], g["system"], g["seg_id"]): g for g in golden("chrf_sentence.jsonl")}
    cers = {(g["pair"], g["system"], g["seg_id"]): g for g in golden("cer_sentence.jsonl")}
    assert len(ters) == len(chrfs) == len(cers) == 7500
    seen = multi_seen = 0
    for pair in PAIRS:
        t = table_of(pair)
        one = mteval.score(t, ["ter", "chrf", "chrf++", "characTER"], refs=["ref"]).to_pylist()
        multi = mteval.score(t, ["ter", "chrf", "chrf++"], refs=["ref", "ref2"]).to_pylist()
        for r, m in zip(one, multi):
            key = (pair, r["system"], r["seg_id"])
            if key not in ters:
                continue
            seen += 1
            assert r["ter"] == ters[key]["ter"]["default"][0], key
            assert (r["chrf"], r["chrfpp"]) == (chrfs[key]["chrf"]["chrf"], chrfs[key]["chrf"]["chrfpp"]), key
            if ters[key]["ter_multi"] is None:  # no second reference in this pair: a NULL ref2 is skipped
                assert m["ref2"] is None and (m["ter"], m["chrf"], m["chrfpp"]) == (r["ter"], r["chrf"], r["chrfpp"])
            else:
                multi_seen += 1
                assert m["ter"] == ters[key]["ter_multi"]["default"][0], key
                assert (m["chrf"], m["chrfpp"]) == (chrfs[key]["chrf_multi"]["chrf"], chrfs[key]["chrf_multi"]["chrfpp"]), key
            assert r["charac_ter"] == cers[key]["cer"], key
    assert seen == 7500 and multi_seen > 0


def test_score_term_accuracy_equals_the_terminology_golden_cases():
    cases = [c for c in golden("terms_cases.jsonl") if c["source"] == "wmt"]
    assert len(cases) == 600
    t = pa.table({"hyp": [c["hyp"] for c in cases], "terms": [c["terms"] for c in cases],
                  "lemmas": [c["lemmas"] for c in cases]})
    out = mteval.score(t, ["term-acc", "term-acc-lemmatized"], refs=[])
    for c, e, l in zip(cases, out["term_acc"].to_pylist(), out["term_acc_lemmatized"].to_pylist()):
        assert e == c["exact_matched"] / c["n_terms"], c["id"]
        assert l == c["lemmatized_matched"] / c["n_terms"], c["id"]
    # NULL terms give NULL; a missing terms column is a ValueError naming it
    t2 = pa.table({"hyp": ["a b", "a b"], "terms": [[["a"], ["c", "b"]], None]})
    assert mteval.score(t2, ["term-acc"], refs=[])["term_acc"].to_pylist() == [1.0, None]
    with pytest.raises(ValueError, match="terms column 'glossary' not found"):
        mteval.score(t2, ["term-acc"], refs=[], terms="glossary")


def test_score_takes_polars_pandas_and_readers_and_keeps_nulls():
    t = pa.table({"hyp": ["a b c", None, "x"], "ref": ["a b d", "q", None], "ref2": ["a b c", "q", None]})
    want = mteval.score(t, ["ter"], refs=["ref", "ref2"])["ter"].to_pylist()
    assert want[1] is None and want[2] is None and want[0] == 0.0
    reader = pa.RecordBatchReader.from_batches(t.schema, t.to_batches())
    assert mteval.score(reader, ["ter"], refs=["ref", "ref2"])["ter"].to_pylist() == want
    pd = pytest.importorskip("pandas")
    assert mteval.score(t.to_pandas(), ["ter"], refs=["ref", "ref2"])["ter"].to_pylist() == want
    pl = pytest.importorskip("polars")
    assert mteval.score(pl.from_arrow(t), ["ter"], refs=["ref", "ref2"])["ter"].to_pylist() == want
    del pd


def test_sql_reads_files_by_path_like_the_cli():
    path = SHARED / "data" / "wmt" / "en-de.parquet"
    got = mteval.sql(f"SELECT system, corpus_ter(hyp, ref) AS ter, corpus_bleu(hyp, ref) AS bleu "
                     f"FROM '{path}' GROUP BY system ORDER BY system")
    from sacrebleu.metrics import BLEU, TER
    for system, ter, bleu in zip(*(got[c].to_pylist() for c in ("system", "ter", "bleu"))):
        rows = system_rows("en-de", system)
        hyps, refs = [r["hyp"] for r in rows], [[r["ref"] for r in rows]]
        assert ter == TER().corpus_score(hyps, refs).score
        assert bleu == BLEU().corpus_score(hyps, refs).score


def test_datafusion_python_runs_every_kind_of_function():
    datafusion = pytest.importorskip("datafusion")
    ctx = datafusion.SessionContext()
    mteval.register(ctx)
    ctx.register_parquet("t", str(SHARED / "data" / "wmt" / "en-de.parquet"))
    # scalar with and without options (the options arrive as an array over FFI)
    q = ("SELECT system, corpus_ter(hyp, ref, 'norm:yes') AS ter, corpus_chrf(hyp, ref) AS chrf, "
         "avg(ter(hyp, ref)) AS mean_ter, avg(chrf(hyp, ref, 'nw:2')) AS mean_chrfpp FROM t GROUP BY system ORDER BY system")
    got = ctx.sql(q).to_arrow_table()
    want = mteval.sql(q.replace("FROM t", f"FROM '{SHARED / 'data' / 'wmt' / 'en-de.parquet'}'"))
    assert got.to_pylist() == want.to_pylist()
    from sacrebleu.metrics import TER
    for system, ter in zip(got["system"].to_pylist(), got["ter"].to_pylist()):
        rows = system_rows("en-de", system)
        assert ter == TER(normalized=True).corpus_score([r["hyp"] for r in rows], [[r["ref"] for r in rows]]).score
    # window function with options
    w = ("SELECT seg_id, system, mbr_chrf(hyp, 'nc:6') OVER (PARTITION BY seg_id) AS u FROM t "
         "WHERE seg_id < 40 ORDER BY seg_id, system")
    got = ctx.sql(w).to_arrow_table().to_pylist()
    want = mteval.sql(w.replace("FROM t", f"FROM '{SHARED / 'data' / 'wmt' / 'en-de.parquet'}'")).to_pylist()
    assert got == want and len(got) > 0 and all(r["u"] is not None for r in got)


# --- errors ----------------------------------------------------------------------------------------------------

def test_errors_are_python_exceptions_with_the_cli_messages():
    with pytest.raises(ValueError, match="tok:ja-mecab"):
        mteval.BLEU(tokenize="ja-mecab")
    with pytest.raises(ValueError, match="smooth"):
        mteval.BLEU(smooth_method="bogus")
    with pytest.raises(ValueError, match="unknown metric|bogus"):
        mteval.score(pa.table({"hyp": ["a"], "ref": ["a"]}), ["bogus"])
    with pytest.raises(ValueError, match="'nope' not found"):
        mteval.score(pa.table({"hyp": ["a"], "ref": ["a"]}), ["ter"], refs=["nope"])
    with pytest.raises(ValueError, match="norm"):
        mteval.score(pa.table({"hyp": ["a"], "ref": ["a"]}), ["ter"], options={"ter": "norm:maybe"})
    with pytest.raises(ValueError):
        mteval.sql("SELECT * FROM")
    with pytest.raises(ValueError, match="batch size"):
        mteval.pairwise_chrf([["a"]], [["b"], ["c"]])
    with pytest.raises(ZeroDivisionError):
        mteval.calculate_cer(["a"], [])
    with pytest.raises(ValueError, match="evaluate the metric first"):
        mteval.TER().get_signature()
    with pytest.raises(TypeError):
        mteval.score([{"hyp": "a"}], ["ter"])
