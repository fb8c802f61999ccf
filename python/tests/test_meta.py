"""mteval.meta: mt-metrics-eval's meta-evaluation from Python, the same numbers as
`mteval meta --json` and as the reference's own task sets (tests/golden/meta_tasksets.json,
made by scripts/make_taskset_golden.py from tasks.WMT23/WMT24/WMT25 at 68a481a)."""

import json
import math
import os

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

import mteval

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "golden", "meta_tasksets.json")


def golden_set(name):
    with open(GOLDEN) as f:
        return next(s for s in json.load(f)["sets"] if s["test_set"] == name)


def reference_rows(s):
    """The systems and metrics the reference's run used, a row per pair, system and segment."""
    ts = s["test_set"]
    cols = sorted(s["tasks"][0]["order"])
    rows = {c: [] for c in ["lp", "system", "seg", "gold"] + cols}
    for lp, x in s["lps"].items():
        human = (ts == "wmt23" and lp == "he-en") or (ts == "wmt24" and lp == "en-de")
        std = "refB" if human else "refA"
        for sysname in x["systems"]:
            gold = x["gold"][sysname]
            if sysname == std or (sysname in x["refs"] and not human) or sysname in ("synthetic_ref", "MSLC") \
                    or all(g is None for g in gold):
                continue
            for i, g in enumerate(gold):
                rows["lp"].append(lp)
                rows["system"].append(sysname)
                rows["seg"].append(i)
                rows["gold"].append(g)
                for c in cols:
                    base = c.removesuffix("[noref]").lstrip("*")
                    f = f"{base}-src" if c.endswith("[noref]") else f"{base}-{std}"
                    rows[c].append(x["metrics"][f][sysname][i])
    return pa.table(rows)


@pytest.mark.parametrize("name", ["wmt23", "wmt24", "wmt25"])
def test_task_set_of_an_arrow_table_equals_the_reference(name):
    s = golden_set(name)
    out = mteval.meta(reference_rows(s), lp="lp", segment="seg", tasks=name, k=s["k"], seed=s["seed"])
    assert [t["order"] for t in out["tasks"]] == [t["order"] for t in s["tasks"]]
    for got, want in zip(out["tasks"], s["tasks"]):
        for m, v in want["metrics"].items():
            assert math.isclose(got["metrics"][m]["corr"], v["corr"], abs_tol=1e-12)
            assert got["metrics"][m]["rank"] == v["rank"], (name, want["lp"], want["corr_fcn"], m)
    assert out["average_order"] == s["average_order"]
    for m, v in s["average"].items():
        assert math.isclose(out["average"][m]["corr"], v["corr"], abs_tol=1e-12)
        assert out["average"][m]["rank"] == v["rank"]
        assert math.isclose(out["average"][m]["avg_rank"], s["average_ranks"][m], abs_tol=1e-12)


def test_a_path_and_a_table_give_the_same_numbers(tmp_path):
    s = golden_set("wmt24")
    table = reference_rows(s)
    path = str(tmp_path / "t.csv")
    pacsv.write_csv(table, path)
    a = mteval.meta(path, lp="lp", segment="seg", tasks="wmt24", k=50)
    b = mteval.meta(table, lp="lp", segment="seg", tasks="wmt24", k=50)
    assert a == b
    # One pair's rows, one task: the CLI's single-task mode.
    en_es = table.filter(pa.compute.equal(table["lp"], "en-es")).drop_columns(["lp"])
    one = mteval.meta(en_es, segment="seg", corr="spa", k=0)
    assert one["tasks"][0]["corr_fcn"] == "pce"
    want = s["tasks"][2]
    assert want["lp"] == "en-es" and want["corr_fcn"] == "pce"
    got = {m["name"]: m["corr"] for m in one["tasks"][0]["metrics"]}
    for m, v in want["metrics"].items():
        assert math.isclose(got[m], v["corr"], abs_tol=1e-12)


def test_bad_arguments_say_what_is_wrong():
    s = golden_set("wmt23")
    table = reference_rows(s)
    with pytest.raises(ValueError, match="--corr runs one task|corr="):
        mteval.meta(table, lp="lp", segment="seg", tasks="wmt23", corr="pearson")
    with pytest.raises(ValueError, match="wmt26"):
        mteval.meta(table, lp="lp", segment="seg", tasks="wmt26")
    with pytest.raises(ValueError, match="nosuch"):
        mteval.meta(table, lp="nosuch", segment="seg")
    with pytest.raises(TypeError, match="k must be"):
        mteval.meta(table, k=[1])
