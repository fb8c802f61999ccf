"""mteval.comet_compare against comet-compare's own functions (unbabel-comet 2.2.7's compare.py, from
its published wheel, loaded by scripts/comet_reference.py): fresh random score columns on every run,
every number compared bit for bit, and the Python surface's refusals."""
import math
import os
import random
import sys

import numpy as np
import pytest

import mteval

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import comet_reference  # noqa: E402


@pytest.fixture(scope="module")
def cc():
    path = os.environ.get("MTEVAL_COMET_COMPARE_PY")
    if not path:
        pytest.fail("MTEVAL_COMET_COMPARE_PY: comet/cli/compare.py of unbabel-comet 2.2.7 (scripts/test-python.sh "
                    "fetches it)")
    return comet_reference.load(path)


def same(a, b):
    a, b = float(a), float(b)
    return (math.isnan(a) and math.isnan(b)) or a == b


def fresh_case(rng):
    systems = int(rng.integers(2, 6))
    segments = int(rng.choice([2, 3, 17, 100, int(rng.integers(2, 3000))]))
    kind = rng.choice(["comet", "close", "wide", "ties"])
    base = rng.uniform(0.2, 0.95, segments)
    if kind == "close":
        scores = [base + rng.normal(0, 0.001, segments) for _ in range(systems)]
    elif kind == "wide":
        scores = [rng.standard_normal(segments) * 5 + i for i in range(systems)]
    elif kind == "ties":
        scores = [np.round(base + rng.normal(0, 0.05, segments), 2) for _ in range(systems)]
    else:
        scores = [np.clip(base + rng.normal(0.02 * i, 0.1, segments), 0, 1) for i in range(systems)]
    opts = dict(seed=int(rng.choice([12, 1, int(rng.integers(0, 2**32))])), num_splits=int(rng.choice([300, 50, 1000])),
                sample_ratio=float(rng.choice([0.4, 0.1, 0.9, 1.5])),
                t_test_alternative=str(rng.choice(["two-sided", "less", "greater"])))
    return [s.tolist() for s in scores], opts


@pytest.mark.parametrize("k", range(12))
def test_fresh_random_scores_match_comet_compare(cc, k):
    seed = random.SystemRandom().randrange(2**63)
    rng = np.random.default_rng(seed)
    scores, opts = fresh_case(rng)
    names = [f"system-{i}" for i in range(len(scores))]
    want, named = comet_reference.reference(cc, scores, names, opts["seed"], opts["num_splits"], opts["sample_ratio"],
                                            opts["t_test_alternative"])
    got = mteval.comet_compare(dict(zip(names, scores)), **opts)
    assert len(got["statistical_results"]) == len(want)
    for g, w in zip(got["statistical_results"], want):
        assert (g["x_name"], g["y_name"]) == (str(w["x_name"]), str(w["y_name"]))
        for part in ("bootstrap_resampling", "paired_t-test"):
            assert list(g[part]) == list(w[part])
            for key, value in w[part].items():
                assert same(g[part][key], value), (seed, part, key, g[part][key], value)
    n = len(names)
    for i in range(n):
        for j in range(n):
            if i == j:
                assert got["summary"][i][j] is None
    # comet-compare's printed summary marks the same wins.
    text = comet_reference.printed(cc, want, named)
    rows = text.split("system_x \\ system_y", 1)[1].splitlines()[2:]
    for i, row in enumerate(rows):
        assert row.split()[1:].count("True") == sum(1 for v in got["summary"][i] if v is True), (seed, row)


def test_scores_as_lists_take_names_and_the_defaults(cc):
    rng = np.random.default_rng(5)
    scores = [rng.uniform(0.5, 0.9, 200).tolist() for _ in range(3)]
    got = mteval.comet_compare(scores)
    assert got["systems"] == ["sys0", "sys1", "sys2"] and got["sample_size"] == 80
    want, _ = comet_reference.reference(cc, scores, got["systems"])
    for g, w in zip(got["statistical_results"], want):
        assert same(g["paired_t-test"]["p_value"], w["paired_t-test"]["p_value"])
        assert same(g["bootstrap_resampling"]["x-mean"], w["bootstrap_resampling"]["x-mean"])


def test_bad_input_says_what_is_wrong():
    with pytest.raises(ValueError, match="two or more"):
        mteval.comet_compare({"a": [0.1, 0.2]})
    with pytest.raises(ValueError, match="system 1 has 1 segment"):
        mteval.comet_compare([[0.1, 0.2], [0.3]])
    with pytest.raises(ValueError, match="system 0, segment 1"):
        mteval.comet_compare([[0.1, float("nan")], [0.3, 0.4]])
    with pytest.raises(ValueError, match="two-sided, less, greater"):
        mteval.comet_compare([[0.1, 0.2], [0.3, 0.4]], t_test_alternative="both")
    with pytest.raises(ValueError, match="names: 1 names for 2 systems"):
        mteval.comet_compare([[0.1, 0.2], [0.3, 0.4]], ["a"])
    with pytest.raises(ValueError, match="seed must be below"):
        mteval.comet_compare([[0.1, 0.2], [0.3, 0.4]], seed=2**32)
    with pytest.raises(TypeError, match="scores must be numbers"):
        mteval.comet_compare([[0.1, "x"], [0.3, 0.4]])
