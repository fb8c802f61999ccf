"""Segment scores computed elsewhere (COMET, human) through `mteval.sql`'s resampling aggregates, against
sacrebleu 2.6.0's PairedTest over a Metric whose statistics are [value, 1.0] (tests/golden/significance.json,
the cases of kind "score", made by scripts/make_significance_golden.py with its seeded_score columns)."""

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute  # noqa: F401 (pa.compute)
import pytest
import pyarrow.parquet as pq

import mteval

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("MTEVAL_SHARED_DIR", ROOT.parent / "shared"))


def seeded_score(formula, s, i):
    """scripts/make_significance_golden.py's seeded_score: segment i of the s-th system sorted by name."""
    if formula == "frac":
        return ((i * 7919 + s * 104729) % 10007) / 10007
    return ((i * 31 + s * 977 + (i * i) % 13) % 2501) / 100.0 - 5.0


def score_case(pair, test):
    with open(ROOT / "tests" / "golden" / "significance.json", encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    return next(c for c in cases if c["pair"] == pair and c["test"] == test
                and [m["name"] for m in c["metrics"] if m["kind"] == "score"] == ["frac", "neg"])


def scored_parquet(tmp_path, pair):
    """The pair's systems (sorted by name) with seeded score columns, one row per system and segment."""
    t = pq.read_table(SHARED / "data" / "wmt" / f"{pair}.parquet", columns=["system", "seg_id"]).to_pylist()
    systems = sorted({r["system"] for r in t})
    n = sum(1 for r in t if r["system"] == systems[0])
    rows = [{"system": sys, "seg": i, "frac": seeded_score("frac", s, i), "neg": seeded_score("neg", s, i)}
            for s, sys in enumerate(systems) for i in range(n)]
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_corpus_bootstrap_and_paired_test_take_score_columns(tmp_path):
    path = scored_parquet(tmp_path, "en-de")
    ci = score_case("en-de", "ci")
    base = ci["systems"][0]
    got = mteval.sql(f"SELECT corpus_bootstrap(frac, 'score', 'score:frac' ORDER BY seg) AS f, "
                     f"corpus_bootstrap(neg, 'score', 'score:neg|dir:lower' ORDER BY seg) AS n "
                     f"FROM '{path}' WHERE system = '{base}'").to_pylist()[0]
    for col, m in zip(("f", "n"), ci["metrics"]):
        want = m["results"][0]
        assert (got[col]["score"], got[col]["mean"], got[col]["ci"]) == (want["score"], want["mean"], want["ci"])
        assert got[col]["signature"].split("|impl:")[0] == m["signature"]
    bs = score_case("en-de", "bs")
    rows = mteval.sql(
        f"SELECT s.system, paired_test(s.frac, b.frac, 'score', 'score:frac|bs:1000' ORDER BY s.seg) AS t "
        f"FROM '{path}' s JOIN '{path}' b ON s.seg = b.seg AND b.system = '{base}' "
        f"WHERE s.system <> '{base}' GROUP BY s.system ORDER BY s.system").to_pylist()
    m = bs["metrics"][0]
    assert [r["system"] for r in rows] == bs["systems"][1:]
    for k, r in enumerate(rows):
        want = m["results"][k + 1]
        assert [r["t"][f] for f in ("score", "p_value", "mean", "ci")] == [want[f] for f in
                                                                        ("score", "p_value", "mean", "ci")]
        assert r["t"]["baseline_score"] == m["results"][0]["score"]


def text_and_scores(pair, text=True):
    """The pair's systems with hyp, ref and the seeded score columns (as tests/cli_scores.rs builds them)."""
    t = pq.read_table(SHARED / "data" / "wmt" / f"{pair}.parquet", columns=["system", "seg_id", "hyp", "ref"])
    systems = sorted(set(t.column("system").to_pylist()))
    rows, seen = [], {}
    for r in t.to_pylist():
        s = systems.index(r["system"])
        i = seen[s] = seen.get(s, -1) + 1  # the segment's place in its system's rows (the formulas' i)
        row = {"system": r["system"], "seg_id": r["seg_id"], "frac": seeded_score("frac", s, i),
               "neg": seeded_score("neg", s, i)}
        if text:
            row.update(hyp=r["hyp"], ref=r["ref"])
        rows.append(row)
    return pa.Table.from_pylist(rows)


def golden_case(pair, test, metrics):
    with open(ROOT / "tests" / "golden" / "significance.json", encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    return next(c for c in cases if c["pair"] == pair and c["test"] == test
                and [m["name"] for m in c["metrics"]] == metrics)


def assert_golden(rows, case):
    assert [r["system"] for r in rows] == case["systems"]
    for m in case["metrics"]:
        for r, want in zip(rows, m["results"]):
            got = r[m["name"]]
            assert [got[k] for k in ("score", "p_value", "mean", "ci")] == [want[k] for k in
                                                                          ("score", "p_value", "mean", "ci")]
            assert got["signature"].split("|impl:")[0] == m["signature"]


def test_compare_takes_score_columns_beside_text_metrics():
    case = golden_case("en-de", "bs", ["frac", "neg", "BLEU"])
    rows = mteval.compare(text_and_scores("en-de"), metrics="bleu", scores=["frac", "neg:lower"], segment="seg_id",
                          baseline=case["systems"][0], test="bs")
    assert list(rows[0]) == ["system", "BLEU", "frac", "neg"]
    assert list(rows[0]["frac"]) == ["score", "p_value", "mean", "ci", "signature"]
    assert_golden(rows, case)
    # Score columns alone need no text columns; approximate randomization, then with intervals.
    case = golden_case("de-en", "ar", ["frac", "neg"])
    rows = mteval.compare(text_and_scores("de-en", text=False), scores=["frac", "neg:lower"], segment="seg_id",
                          baseline=case["systems"][0], test="ar")
    assert_golden(rows, case)
    case = golden_case("en-de", "ar", ["frac", "chrF2"])
    rows = mteval.compare(text_and_scores("en-de"), metrics=["chrf"], scores="frac", segment="seg_id",
                          baseline=case["systems"][0], test="ar", n=2000, ar_confidence_n=1000, seed=12345)
    assert_golden(rows, case)


def test_compare_without_a_test_gives_corpus_scores_and_sacrebleus_default_metric():
    t = text_and_scores("en-de")
    rows = mteval.compare(t, segment="seg_id", test=None)
    assert [list(r) for r in rows] == [["system", "BLEU"]] * 3
    for r in rows:
        mine = t.filter(pa.compute.equal(t.column("system"), r["system"])).sort_by("seg_id")
        want = mteval.BLEU().corpus_score(mine.column("hyp").to_pylist(), [mine.column("ref").to_pylist()]).score
        assert r["BLEU"]["score"] == want
        assert r["BLEU"]["p_value"] is None and r["BLEU"]["mean"] is None
        assert r["BLEU"]["signature"].startswith("nrefs:1|case:mixed")
    # A score column's corpus score is its mean over the system's segments.
    rows = mteval.compare(t, metrics=["ter"], scores="frac", segment="seg_id", test=None)
    assert [list(r) for r in rows] == [["system", "TER", "frac"]] * 3
    for r in rows:
        values = [x["frac"] for x in t.to_pylist() if x["system"] == r["system"]]
        assert r["frac"]["score"] == sum(values) / len(values)


def test_compare_refuses_bad_score_columns_and_arguments_by_name():
    t = text_and_scores("en-de", text=False)
    # A score named `system` would be a second `system` key of compare's rows (src/compare/mod.rs refuses it first).
    with pytest.raises(ValueError, match="a score named 'system': compare's JSON rows hold the system's name"):
        mteval.compare(t, scores="system", segment="seg_id")
    with pytest.raises(ValueError, match="score column 'comet' not found"):
        mteval.compare(t, scores="comet", segment="seg_id")
    holes = t.set_column(t.schema.get_field_index("frac"), "frac",
                         pa.array([None] + t.column("frac").to_pylist()[1:], pa.float64()))
    first = t.column("system")[0].as_py()
    with pytest.raises(ValueError, match=f"system '{first}', segment '0'.* no 'frac' score"):
        mteval.compare(holes, scores="frac", segment="seg_id")
    one = t.filter(pa.compute.equal(t.column("system"), first))
    with pytest.raises(ValueError, match="paired tests need two or more systems"):
        mteval.compare(one, scores="frac")
    with pytest.raises(ValueError, match="test 'boot'"):
        mteval.compare(t, scores="frac", test="boot")
    with pytest.raises(ValueError, match="n must be a positive integer"):
        mteval.compare(t, scores="frac", n=0)
    with pytest.raises(ValueError, match="unknown metric 'blue'"):
        mteval.compare(text_and_scores("en-de"), metrics="blue")
