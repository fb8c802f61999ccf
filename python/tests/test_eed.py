"""EED through the Python package: ``mteval.score``, ``mteval.sql`` and ``mteval.compare`` give EED.py's numbers
(rwth-i6/ExtendedEditDistance f944adc, as recorded in tests/golden/eed.json by scripts/make_eed_golden.py)."""
import json
import os

import pyarrow as pa

import mteval

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "golden", "eed.json")


def cases(prep):
    with open(GOLDEN, encoding="utf-8") as f:
        return [c for c in json.load(f)["random"] if c["prep"] == prep]


def test_score_and_sql_give_eed_pys_sentence_and_system_scores():
    en = cases("en")
    table = pa.table({"hyp": [c["hyp"] for c in en], "ref": [c["ref"] for c in en]})
    for compat in ("eed", "python"):
        got = mteval.score(table, "eed", options=f"compat:{compat}")["eed"].to_pylist()
        assert got == [c[compat] for c in en], compat
    rows = ", ".join(f"({i}, '{c['hyp']}', '{c['ref']}')".replace("\\", "\\\\") for i, c in enumerate(en[:50])
                     if "'" not in c["hyp"] + c["ref"])
    out = mteval.sql(f"SELECT corpus_eed(h, r) AS s FROM (VALUES {rows}) AS t(i, h, r)")
    want = [c["eed"] for c in en[:50] if "'" not in c["hyp"] + c["ref"]]
    assert out["s"].to_pylist() == [sum(want) / len(want)]


def test_ja_preprocessing_and_bad_options():
    ja = cases("ja")
    table = pa.table({"hyp": [c["hyp"] for c in ja], "ref": [c["ref"] for c in ja]})
    assert mteval.score(table, "eed", options="prep:ja")["eed"].to_pylist() == [c["eed"] for c in ja]
    try:
        mteval.score(table, "eed", options="compat:cpp")
    except Exception as e:  # noqa: BLE001 - the error's text is what a user sees
        assert "compat:cpp" in str(e) and "eed or python" in str(e), e
    else:
        raise AssertionError("compat:cpp was accepted")


def test_compare_takes_eed_as_a_lower_is_better_metric():
    en = cases("en")[:200]
    table = pa.table({"system": ["a"] * len(en) + ["b"] * len(en), "hyp": [c["hyp"] for c in en] + [c["ref"] for c in en],
                      "ref": [c["ref"] for c in en] * 2})
    out = mteval.compare(table, metrics="eed", test="bs", n=100)
    scores = {r["system"]: r["EED"]["score"] for r in out}
    assert scores["b"] == 0.0 and abs(scores["a"] - sum(c["eed"] for c in en) / len(en)) <= 5e-5, scores
