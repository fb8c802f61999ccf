"""Segment scores computed elsewhere (COMET, human) through `mteval.sql`'s resampling aggregates, against
sacrebleu 2.6.0's PairedTest over a Metric whose statistics are [value, 1.0] (tests/golden/significance.json,
the cases of kind "score", made by scripts/make_significance_golden.py with its seeded_score columns)."""

import json
import os
from pathlib import Path

import pyarrow as pa
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
