"""What a bad-input probe found in the Python package: DISTINCT through datafusion-python, COPY to a path that
cannot be written, Ctrl-C during long calls, the hint to raise TER's length limit.

Each long call runs in a child interpreter that gets SIGINT after it started; it must raise KeyboardInterrupt
within a few seconds (it used to run to the end, or for ever)."""

import signal
import subprocess
import sys
import textwrap
import time

import pyarrow as pa
import pytest

import mteval


def test_distinct_is_refused_through_datafusion_python():
    datafusion = pytest.importorskip("datafusion")
    ctx = datafusion.SessionContext()
    mteval.register(ctx)
    ctx.register_record_batches("t", [pa.table({"h": ["a b", "a b", "x y"], "r": ["a b", "a b", "x z"]}).to_batches()])
    assert ctx.sql("SELECT corpus_ter(h, r) AS t FROM t").to_arrow_table()["t"].to_pylist() == [100 * (1 / 6)]
    for call in ["corpus_ter(DISTINCT h, r)", "corpus_chrf(DISTINCT h, r)", "corpus_bleu(DISTINCT h, r)",
                 "corpus_bootstrap(DISTINCT h, r, 'bleu')"]:
        with pytest.raises(Exception, match="does not take DISTINCT"):
            ctx.sql(f"SELECT {call} FROM t").to_arrow_table()
    with pytest.raises(ValueError, match="does not take DISTINCT"):
        mteval.sql("SELECT corpus_ter(DISTINCT h, r) FROM (VALUES ('a b', 'a b')) v(h, r)")


def test_copy_to_an_unwritable_path_fails_at_once():
    start = time.monotonic()
    with pytest.raises(ValueError, match="COPY cannot write /proc/x.csv"):
        mteval.sql("COPY (SELECT 1 AS x) TO '/proc/x.csv'")
    assert time.monotonic() - start < 10


def test_several_statements_run_in_order_and_the_last_one_is_returned(tmp_path):
    out = tmp_path / "one.parquet"
    got = mteval.sql(f"COPY (SELECT 'a b' AS h, 'a c' AS r) TO '{out}'; SELECT ter(h, r) AS t FROM '{out}'")
    assert got["t"].to_pylist() == [50.0]


def _interrupt(code, wait=1.5):
    """Runs `code` in a child interpreter (it prints `started` before its long call), sends SIGINT `wait` seconds
    later and returns (seconds from the signal to the child's end, its stdout, its stderr)."""
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "started", p.stderr.read()
        time.sleep(wait)
        start = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        return time.monotonic() - start, out, err
    finally:
        p.kill()


LONG_CALLS = {
    "sql": """
        mteval.sql("SELECT sum(ter(repeat('a b ', 1500) || CAST(value AS VARCHAR), repeat('b a ', 1500))) AS s "
                   "FROM generate_series(1, 2000000)")
    """,
    "corpus_score": """
        hyp = " ".join(f"w{i % 97}" for i in range(1200))
        ref = " ".join(f"w{(i * 7) % 97}" for i in range(1200))
        mteval.TER().corpus_score([hyp] * 20000, [[ref] * 20000])
    """,
    "score": """
        import pyarrow as pa
        hyp = " ".join(f"w{i % 97}" for i in range(1200))
        ref = " ".join(f"w{(i * 7) % 97}" for i in range(1200))
        mteval.score(pa.table({"hyp": [hyp] * 20000, "ref": [ref] * 20000}), ["ter"])
    """,
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_interrupts_long_calls(call):
    code = "import sys, mteval\nprint('started', flush=True)\ntry:\n" + textwrap.indent(
        textwrap.dedent(LONG_CALLS[call]), "    ") + "\n    print('finished')\nexcept KeyboardInterrupt:\n" \
        "    print('interrupted')\n"
    elapsed, out, err = _interrupt(code)
    assert out.strip().splitlines()[-1:] == ["interrupted"], (out, err)
    assert elapsed < 8, f"{call}: {elapsed:.1f} s from Ctrl-C to the end"


def test_the_length_limit_hint_names_this_api():
    long = " ".join(["w"] * 5001)
    with pytest.raises(ValueError, match=r"TER\(max_words=N\) raises the limit") as e:
        mteval.TER().corpus_score([long], [["w w"]])
    assert "option max_words" not in str(e.value)
    assert mteval.TER(max_words=6000).corpus_score([long], [["w w"]]).num_edits == 4999
    # mteval.score takes the option, as the CLI: its hint stays.
    with pytest.raises(ValueError, match="max_words:N raises the limit"):
        mteval.score(pa.table({"hyp": [long], "ref": ["w w"]}), ["ter"])
    got = mteval.score(pa.table({"hyp": [long], "ref": ["w w"]}), ["ter"], options={"ter": "max_words:6000"})
    assert got["ter"].to_pylist() == [4999 / 2 * 100]


# --- what a new user hit -----------------------------------------------------------------------------------


def test_single_strings_where_lists_are_expected():
    t = pa.table({"hyp": ["a b", "c e"], "ref": ["a b", "c d"], "ref2": ["x", None]})
    assert mteval.score(t, "ter")["ter"].to_pylist() == mteval.score(t, ["ter"])["ter"].to_pylist() == [0.0, 50.0]
    assert mteval.score(t, "ter", refs="ref2")["ter"].to_pylist() == [200.0, None]
    assert (mteval.score(t, "chrf", options="nw:2")["chrf"].to_pylist()
            == mteval.score(t, ["chrf"], options={"chrf": "nw:2"})["chrf"].to_pylist())
    with pytest.raises(ValueError, match="one string applies to one metric"):
        mteval.score(t, ["ter", "chrf"], options="norm:yes")
    with pytest.raises(TypeError, match="hyp must be a column name"):
        mteval.score(t, "ter", hyp=["hyp"])
    with pytest.raises(TypeError, match="metrics must be strings"):
        mteval.score(t, ["ter", 3])
    with pytest.raises(TypeError, match="options must be a dict"):
        mteval.score(t, "ter", options=["norm:yes"])


def test_reference_streams_are_checked_by_name_and_length():
    ter = mteval.TER()
    with pytest.raises(ValueError, match="reference stream 2 of 2 has 1 segments but there are 2 hypotheses"):
        ter.corpus_score(["a", "b"], [["a", "b"], ["a"]], strict=True)
    with pytest.raises(TypeError, match="one list of sentences"):
        ter.corpus_score(["a", "b"], ["a", "b"], strict=True)
    with pytest.raises(TypeError, match="hypotheses must be a list"):
        ter.corpus_score("a b", [["a b"]])
    # A segment whose every reference is None: sacrebleu fails there (ZeroDivisionError, TypeError,
    # IndexError by metric); mteval says which segment.
    from sacrebleu.metrics import BLEU, CHRF, TER
    for ours, theirs in ((mteval.TER(), TER()), (mteval.BLEU(), BLEU()), (mteval.CHRF(), CHRF())):
        with pytest.raises(ValueError, match=r"segment 1 \(counting from 0\) has no reference"):
            ours.corpus_score(["a", "b"], [["a", None], [None, None]])
        with pytest.raises(Exception):
            theirs.corpus_score(["a", "b"], [["a", None], [None, None]])
    # None beside a reference is a missing reference, as in sacrebleu.
    got = mteval.TER().corpus_score(["a", "b"], [["a", None], [None, "b"]])
    assert got.score == TER().corpus_score(["a", "b"], [["a", None], [None, "b"]]).score == 0.0


def test_signatures_in_the_score_table_as_in_the_cli_parquet(tmp_path):
    t = pa.table({"hyp": ["a b", "c e"], "ref": ["a b", "c d"], "ref2": ["x", None]})
    got = mteval.score(t, ["ter", "chrf++"], refs=["ref", "ref2"])
    meta = {k.decode(): v.decode() for k, v in got.schema.metadata.items()}
    src = tmp_path / "in.parquet"
    import pyarrow.parquet as pq
    pq.write_table(t, src)
    out = tmp_path / "out.parquet"
    subprocess.run([_mteval_binary(), "score", str(src), "-m", "ter", "chrf++", "--ref-col", "ref",
                    "--ref-col", "ref2", "-o", str(out)], check=True, capture_output=True)
    # The CLI adds the signatures to the Parquet file's key-value metadata when it has scored every row.
    want = {k.decode(): v.decode() for k, v in pq.read_metadata(out).metadata.items() if k.startswith(b"mteval.")}
    assert {k: v for k, v in meta.items() if k.startswith("mteval.")} == want
    assert want["mteval.signature.ter"].startswith("nrefs:var|case:lc|tok:tercom|")


def _mteval_binary():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    return str(root / "target" / "release" / "mteval")


def test_tercom_tokenizer_and_compute_bleu_as_sacrebleu():
    from sacrebleu.metrics import BLEU
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
    texts = ["Hello, World!", "The cat's 3.5 kg; isn't it?", "", "  Ａ　ｂ  ", "你好，世界。 It's 1,000!"]
    for kw in [{}, {"normalized": True}, {"no_punct": True}, {"asian_support": True, "normalized": True},
               {"case_sensitive": True, "no_punct": True, "asian_support": True}]:
        ours, theirs = mteval.TercomTokenizer(**kw), TercomTokenizer(**kw)
        for t in texts:
            assert ours(t) == theirs(t), (kw, t)
        assert ours.signature() == theirs.signature() == "tercom"
    cases = [
        ([4, 2, 1, 0], [5, 4, 3, 2], 5, 6, {}),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, {}),
        ([0, 0, 0, 0], [3, 2, 1, 0], 3, 4, {"smooth_method": "exp"}),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 2, {"smooth_method": "floor", "smooth_value": 0.5}),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 5, {"smooth_method": "add-k"}),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 5, {"smooth_method": "add-k", "smooth_value": 2}),
        ([2, 1, 0, 0], [2, 1, 0, 0], 2, 2, {"effective_order": True}),
        ([5, 3, 2], [6, 5, 4], 6, 6, {"max_ngram_order": 3}),
    ]
    for correct, total, sys_len, ref_len, kw in cases:
        a = BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, **kw)
        b = mteval.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, **kw)
        assert (b.score, b.precisions, b.bp, b.counts, b.totals) == \
               (a.score, a.precisions, a.bp, a.counts, a.totals), (correct, total, kw)
        assert str(b) == str(a)


def test_sacrebleus_reference_nesting_trap_warns_and_keeps_its_numbers():
    """sacrebleu#220/#275/#281: references as one list of sentences (not [refs]), or streams of
    other lengths, give sacrebleu a number without an error; mteval gives the same number with a
    warning (once per process), and strict=True raises."""
    import warnings
    from sacrebleu.metrics import BLEU, CHRF, TER
    hyps = ["the cat sat on the mat", "a dog ran in the park", "it rained all day long"]
    refs = ["the cat sat on a mat", "the dog ran in a park", "it rained the whole day"]
    mteval._Metric._nesting_warned = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for ours, theirs in ((mteval.BLEU(), BLEU()), (mteval.CHRF(), CHRF()), (mteval.TER(), TER())):
            # The trap: a list of sentences where a list of streams belongs.
            assert ours.corpus_score(hyps, refs).score == pytest.approx(theirs.corpus_score(hyps, refs).score,
                                                                         abs=1e-9)
            # Streams shorter than the hypotheses: sacrebleu stops at the shortest.
            short = [refs[:2]]
            assert ours.corpus_score(hyps, short).score == pytest.approx(theirs.corpus_score(hyps, short).score,
                                                                          abs=1e-9)
            # The right shape: no warning needed, the same number.
            assert ours.corpus_score(hyps, [refs]).score == pytest.approx(theirs.corpus_score(hyps, [refs]).score,
                                                                           abs=1e-9)
    nesting = [w for w in caught if "sacrebleu" in str(w.message)]
    assert len(nesting) == 1, [str(w.message) for w in caught]
    assert "one list of sentences" in str(nesting[0].message)
    with pytest.raises(TypeError, match="one list of sentences"):
        mteval.BLEU().corpus_score(hyps, refs, strict=True)
