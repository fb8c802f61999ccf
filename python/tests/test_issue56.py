"""What a bad-input probe found in the Python package (issue 56): `mteval.sql`'s partitions (the same number on
every call and surface), deeply nested SQL (an error or a value, never a crash, in Python and the CLI),
`mteval.jiwer` on bad inputs (jiwer 4.0.0's exceptions and values), dictionary-encoded columns in
`mteval.score`, and errors in Python's words rather than the CLI's flags."""

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import jiwer as ref_jiwer
import pyarrow as pa
import pytest

import mteval
from mteval import jiwer as mj

MTEVAL = Path(__file__).resolve().parents[2] / "target" / "release" / "mteval"


def run_cli_sql(query, *args):
    """`mteval sql -f FILE *args` with `query` in the file (a long query is over the limit of one argument)."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
        f.write(query)
        f.flush()
        return subprocess.run([str(MTEVAL), "sql", "-f", f.name, *args], capture_output=True, text=True, timeout=300)


def cli_sql(query, *args):
    """`mteval sql --format json`'s rows."""
    p = run_cli_sql(query, "--format", "json", *args)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


# Item 2: one partition by default, as the CLI.

# An order-dependent aggregate: the bootstrap resamples index the rows in the order the aggregate receives them.
# 20,000 rows are three batches, which several partitions would merge in the order they finish.
BOOTSTRAP = ("SELECT b.score AS score, b.mean AS mean, b.ci AS ci FROM (SELECT corpus_bootstrap(h, r, 'chrf', "
             "'bs:200') AS b FROM (SELECT 'the cat ' || (i % 97) || ' sat' AS h, 'the cat ' || (i % 89) || ' sits' "
             "AS r, i FROM generate_series(1, 20000) t(i)))")


def test_sql_runs_on_one_partition_as_the_cli():
    show = "SHOW datafusion.execution.target_partitions"
    assert mteval.sql(show)["value"].to_pylist() == ["1"]
    assert [r["value"] for r in cli_sql(show)] == ["1"]
    assert mteval.sql(show, partitions=3)["value"].to_pylist() == ["3"]
    assert [r["value"] for r in cli_sql(show, "--partitions", "3")] == ["3"]
    # RESET returns to the session's partitions, as in the CLI.
    got = mteval.sql(f"SET datafusion.execution.target_partitions = 5; RESET datafusion.execution.target_partitions; "
                     f"{show}", partitions=2)
    assert got["value"].to_pylist() == ["2"]


def test_an_order_dependent_query_gives_the_clis_number_on_every_call():
    want = cli_sql(BOOTSTRAP)
    assert len(want) == 1 and 0 < want[0]["ci"] < 10
    for _ in range(5):
        assert mteval.sql(BOOTSTRAP).to_pylist() == want
    # ORDER BY inside the aggregate makes it the same with any number of partitions.
    ordered = BOOTSTRAP.replace("'bs:200')", "'bs:200' ORDER BY i)")
    want = cli_sql(ordered)
    for p in (1, 4):
        assert mteval.sql(ordered, partitions=p).to_pylist() == want


def test_sql_partitions_are_checked():
    for bad in (0, -1, 65536):
        with pytest.raises(ValueError, match=f"partitions must be from 1 to 65535, got {bad}"):
            mteval.sql("SELECT 1", partitions=bad)
    for bad in (True, 1.0, "2"):
        with pytest.raises(TypeError, match="partitions must be an integer"):
            mteval.sql("SELECT 1", partitions=bad)


# Item 14: deeply nested expressions.

def _child(code):
    """Runs `code` in a child interpreter: (return code, stdout, stderr); a crash is a negative return code."""
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def test_deep_expressions_give_a_value_in_python_not_a_crash():
    rc, out, err = _child("""
        import mteval
        print(mteval.sql("SELECT " + "+".join(["1"] * 3000) + " AS x")["x"].to_pylist())
        cond = " OR ".join(f"i = {k}" for k in range(2000))
        print(mteval.sql(f"SELECT count(*) AS n FROM generate_series(1, 3000) t(i) WHERE {cond}",
                         partitions=4)["n"].to_pylist())
        print(len(mteval.sql(" UNION ALL ".join(["SELECT 1 AS x"] * 1000))))
    """)
    assert rc == 0, err
    assert out.split() == ["[3000]", "[1999]", "1000"]


TOO_DEEP = ("nests expressions or set operations more than 10000 deep (a chain of that many OR-ed conditions, + terms "
            "or UNIONs), beyond what mteval plans: write a long OR of equalities as IN (...), or split the statement")


def test_too_deep_expressions_are_a_clear_error_in_python():
    rc, out, err = _child("""
        import mteval
        for q in ["SELECT 1; SELECT " + "+".join(["1"] * 30000) + " AS x",
                  "SELECT 1 FROM (" + " UNION ALL ".join(["SELECT 1 AS x"] * 10002) + ")"]:
            try:
                mteval.sql(q)
            except ValueError as e:
                print(e)
        print(mteval.sql("SELECT 2 AS y")["y"].to_pylist())
    """)
    assert rc == 0, err
    assert out.splitlines() == [f"statement 2 {TOO_DEEP}", f"the statement {TOO_DEEP}", "[2]"]


def test_deep_expressions_in_the_cli():
    # Planning 9,000 OR-ed conditions takes more than the main thread's 8 MiB of stack (2,000 took more than
    # a tokio worker's 2 MiB), 1,000 UNIONs 15 MB.
    cond = " OR ".join(f"i = {k}" for k in range(9000))
    assert cli_sql(f"SELECT count(*) AS n FROM generate_series(1, 10000) t(i) WHERE {cond}") == [{"n": 8999}]
    assert cli_sql(" UNION ALL ".join(["SELECT 1 AS x"] * 1000)) == [{"x": 1}] * 1000
    for q in ["SELECT " + "+".join(["1"] * 30000), " UNION ALL ".join(["SELECT 1 AS x"] * 10002)]:
        p = run_cli_sql(q)
        assert (p.returncode, p.stderr) == (1, f"error: the statement {TOO_DEEP}\n")


# Item 30: mteval.jiwer on bad inputs, as jiwer 4.0.0.

class _Odd:
    def __str__(self):
        return "odd"


BAD_SIDES = [None, 1, 1.5, b"a", ("a",), {"a"}, _Odd(), [None], ["a", None], [1], ["a", 2.5], [b"a"], [b""], [b" "],
             [["a"]], [("a",)], [], "", "a b", ["a b"], [""], ["  "], ["a", "b"], ["x y", "", "z"]]


def _outcome(f):
    try:
        out = f()
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return "raises", type(e).__name__, str(e)
    if hasattr(out, "__dataclass_fields__"):
        return "returns", type(out).__name__, repr(out)
    return "returns", type(out).__name__, out


@pytest.mark.parametrize("preset", ["wer_default", "wer_standardize", "cer_default", "wer_contiguous",
                                    "cer_contiguous"])
def test_jiwer_bad_inputs_as_jiwer(preset):
    fn = "process_characters" if preset.startswith("cer") else "process_words"
    measure = "cer" if preset.startswith("cer") else "wer"
    for reference in BAD_SIDES:
        for hypothesis in BAD_SIDES:
            for name in (fn, measure):
                theirs = _outcome(lambda: getattr(ref_jiwer, name)(reference, hypothesis, getattr(ref_jiwer, preset),
                                                                   getattr(ref_jiwer, preset)))
                ours = _outcome(lambda: getattr(mj, name)(reference, hypothesis, getattr(mj, preset),
                                                          getattr(mj, preset)))
                assert ours == theirs, (name, preset, reference, hypothesis)


def test_jiwer_bad_inputs_named_in_the_issue():
    with pytest.raises(ValueError, match="^input None was expected to be a string or list of strings$"):
        mj.wer(None, "a")
    with pytest.raises(ValueError, match="^input 1 was expected to be a string or list of strings$"):
        mj.wer("a", 1)
    with pytest.raises(TypeError, match="^expected string or bytes-like object, got 'NoneType'$"):
        mj.wer(["a", None], ["a", "b"])
    with pytest.raises(AttributeError, match="^'int' object has no attribute 'strip'$"):
        mj.cer(["a"], [3])
    with pytest.raises(ValueError, match="Instead got 2 reference and 1 hypothesis sentences"):
        mj.wer(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="Instead got 1 reference and 2 hypothesis sentences"):
        mj.wer([], ["a", "b"])
    out = mj.process_words([], [])
    assert (out.references, out.hypotheses, out.alignments, out.wer, out.mer, out.wil, out.wip) == \
        ([[]], [[]], [[]], 0, 0, 0, 1)
    assert mj.process_characters([], []).references == [[]]
    assert mj.wer([], "a") == 1 and mj.wer("a", []) == 1.0


# Item 31: dictionary-encoded columns in mteval.score.

def test_score_reads_dictionary_encoded_columns():
    from sacrebleu.metrics import CHRF, TER
    hyps = ["the cat sat", "a dog", None, "the cat sat", "hello world"]
    refs = ["the cat sits", "the dog", "x", "the cat sits", None]
    plain = pa.table({"hyp": hyps, "ref": refs})
    want_ter = [TER().sentence_score(h, [r]).score if h is not None and r is not None else None
                for h, r in zip(hyps, refs)]
    want_chrf = [CHRF().sentence_score(h, [r]).score if h is not None and r is not None else None
                 for h, r in zip(hyps, refs)]
    encoded = pa.table({"hyp": pa.array(hyps).dictionary_encode(), "ref": pa.array(refs).dictionary_encode()})
    large = pa.table({"hyp": pa.array(hyps, pa.large_string()).dictionary_encode(), "ref": refs})
    pd = pytest.importorskip("pandas")
    categorical = pd.DataFrame({"hyp": pd.Categorical(hyps), "ref": pd.Categorical(refs)})
    for table in (plain, encoded, large, categorical):
        got = mteval.score(table, ["ter", "chrf"])
        assert got["ter"].to_pylist() == want_ter
        assert got["chrf"].to_pylist() == want_chrf
        meta = got.schema.metadata[b"mteval.signature.ter"].decode()
        assert meta.startswith("nrefs:1|")
    # The input columns come back as they were.
    assert pa.types.is_dictionary(mteval.score(encoded, "ter").schema.field("hyp").type)


def test_compare_reads_dictionary_encoded_columns():
    rows = {"system": ["a", "a", "b", "b"], "hyp": ["the cat sat", "a dog", "the cat", "the dog"],
            "ref": ["the cat sits", "the dog", "the cat sits", "the dog"]}
    plain = mteval.compare(pa.table(rows), metrics="ter", test=None)
    encoded = mteval.compare(pa.table({k: pa.array(v).dictionary_encode() for k, v in rows.items()}), metrics="ter",
                             test=None)
    assert encoded == plain and plain[0]["TER"]["score"] > 0


# Item 32: errors in Python's words, not the CLI's flags.

CLI_WORDS = ["-m ", "(-m", "--options", "--score-col", "--baseline", "--segment-col", "--device", "--utility",
             "mteval score", "mteval compare", "mteval mbr", "-o "]


def _python_words(excinfo):
    msg = str(excinfo.value)
    for w in CLI_WORDS:
        assert w not in msg, msg
    return msg


TABLE = pa.table({"hyp": ["a b", "c d"], "ref": ["a b", "c e"]})
SYSTEMS = pa.table({"system": ["x", "x", "y", "y"], "hyp": ["a b", "c d", "a", "c d"],
                    "ref": ["a b", "c e", "a b", "c e"], "comet": [0.5, 0.6, 0.4, 0.7]})


def test_score_without_metrics():
    with pytest.raises(ValueError) as e:
        mteval.score(TABLE, [])
    assert _python_words(e) == "metrics: give at least one metric, as in mteval.score(table, metrics=['ter'])"


def test_score_with_a_file_name_for_a_metric():
    with pytest.raises(ValueError) as e:
        mteval.score(TABLE, ["ter", "hyp.txt"])
    assert _python_words(e).startswith("metrics: unknown metric 'hyp.txt'")


def test_score_with_options_for_a_metric_not_given():
    with pytest.raises(ValueError) as e:
        mteval.score(TABLE, ["ter"], options={"chrf": "nw:2"})
    assert _python_words(e) == "options: 'chrf' is not among the metrics given (metrics=['ter']); options apply to those"


def test_score_with_an_mbr_utility():
    with pytest.raises(ValueError) as e:
        mteval.score(TABLE, ["mbr_chrf"])
    assert _python_words(e) == ("metrics: mbr_chrf is an MBR utility (it ranks candidates), not a per-row score: "
                                "mteval.score does not take it; its SQL window function (mbr_chrf) does, through "
                                "mteval.sql")
    with pytest.raises(ValueError) as e:
        mteval.score(TABLE, ["mbr_ter"])
    assert _python_words(e).endswith("mteval.score does not take it")


def test_compare_with_options_but_no_text_metric():
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, scores=["comet"], options={"bleu": "tok:none"})
    assert _python_words(e).startswith("options: 'bleu' has options but metrics= names no text metric")


def test_compare_with_options_for_a_metric_not_given():
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, metrics="bleu", options={"chrf": "nw:2"})
    assert _python_words(e) == "options: 'chrf' is not among the metrics given (metrics=['bleu']); options apply to those"


def test_compare_with_a_metric_it_does_not_take():
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, metrics="charac_ter")
    assert _python_words(e).startswith("metrics: charac_ter: mteval.compare takes bleu, ")
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, metrics="nope")
    assert _python_words(e).startswith("metrics: unknown metric 'nope': mteval.compare takes bleu, ")


def test_compare_with_a_bad_score_column():
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, scores=["comet:sideways"])
    assert _python_words(e) == "scores: 'comet:sideways': the direction after ':' is 'lower' or 'higher', as in " \
                               "'metricx:lower'"
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, scores=[":lower"])
    assert _python_words(e) == "scores: ':lower': give a column name, as in 'comet' or 'metricx:lower'"


def test_compare_with_a_score_column_named_as_a_metric():
    t = SYSTEMS.append_column("BLEU", pa.array([1.0, 2.0, 3.0, 4.0]))
    with pytest.raises(ValueError) as e:
        mteval.compare(t, metrics="bleu", scores=["BLEU"])
    assert _python_words(e) == "scores: BLEU: 'BLEU' is already the name of BLEU"


def test_compare_with_an_unknown_baseline():
    with pytest.raises(ValueError) as e:
        mteval.compare(SYSTEMS, baseline="z", test=None)
    assert _python_words(e) == "baseline 'z' is not a system of the table (systems: x, y)"


def test_compare_with_systems_of_unequal_length():
    t = SYSTEMS.slice(0, 3)
    with pytest.raises(ValueError) as e:
        mteval.compare(t, test=None)
    assert _python_words(e) == ("the table: system 'y' has 1 rows but 'x' has 2; give segment='COLUMN' to align them "
                                "by segment")


def test_sql_device_error_names_the_setting():
    try:
        mteval.sql("SET mteval.device = 'cuda'")
    except ValueError as e:
        msg = str(e)
        assert "--device" not in msg and "SET mteval.device = 'cpu' (or 'auto') instead" in msg, msg
    else:
        pytest.skip("this machine has a usable GPU: SET mteval.device = 'cuda' succeeds")


def test_sql_copy_onto_a_device_file_names_no_flag():
    with pytest.raises(ValueError) as e:
        mteval.sql("COPY (SELECT 1 AS x) TO '/dev/full' STORED AS CSV")
    msg = _python_words(e)
    assert "not a regular file" in msg and "-o" not in msg, msg
