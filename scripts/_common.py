"""Helpers shared by the Python scripts in scripts/ (benchmarks and differential tests).

Not a script of its own. Each script puts its own directory first on sys.path
and imports from here, so that it runs from any working directory as
`python3 scripts/X.py ...`:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _common import ROOT, add_tool_args  # noqa: E402
"""
import argparse, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("MTEVAL_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
WMT_PAIRS = ["en-de", "de-en", "zh-en", "en-zh", "en-ja"]


# Arguments.

def best_call(f, repeats):
    """The shortest of `repeats` timings of the in-process call `f()` (seconds), and its last result."""
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def options(**opts):
    """An ArgumentParser with an option --NAME (underscores as dashes) for each NAME=default or
    NAME=(default, help), in order: a flag (store_true) where the default is a bool, else of the default's type."""
    ap = argparse.ArgumentParser()
    for name, opt in opts.items():
        default, text = opt if isinstance(opt, tuple) else (opt, None)
        kw = {"action": "store_true"} if isinstance(default, bool) else {"type": type(default), "default": default}
        ap.add_argument("--" + name.replace("_", "-"), help=text, **kw)
    return ap


def tool_args(**opts):
    """The arguments options(**opts), then --mteval and --python (add_tool_args), parsed."""
    ap = options(**opts)
    add_tool_args(ap)
    return ap.parse_args()


def bench_args(rows, **more):
    """The arguments of a bench_*.py script: --rows (default rows), an int option --NAME for each NAME=default
    in more, then --mteval and --python."""
    return tool_args(rows=rows, **more)


def sacrebleu_bench_args(**opts):
    """The arguments of a benchmark against the sacrebleu command: options(**opts), --dry-run, --mteval and
    --python, parsed. Exits (status 2) if the mteval binary is needed (no --dry-run) and missing."""
    args = tool_args(**opts, dry_run=(False, "run only sacrebleu (no mteval binary needed)"))
    if not args.dry_run and not os.path.exists(args.mteval):
        print(f"{args.mteval} is missing: run `cargo build --release` first")
        sys.exit(2)
    return args


def add_tool_args(ap):
    """--mteval (default: this checkout's release build) and --python (default: the oracle venv's interpreter)."""
    ap.add_argument("--mteval", default=os.path.join(ROOT, "target", "release", "mteval"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venvs/oracle/bin/python"))


# Data.

def load_wmt_rows():
    """Every row of the shared WMT sample ($MTEVAL_SHARED_DIR/data/wmt/PAIR.jsonl), the pairs in WMT_PAIRS order."""
    rows = []
    for pair in WMT_PAIRS:
        with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
            rows += [json.loads(l) for l in f]
    return rows


def load_pair(pair):
    """One pair of the shared WMT sample as (systems, hyps, refs, refs2): the system names sorted, {system:
    hypotheses in seg_id order}, and the `ref` and `ref2` columns of the first (baseline) system's rows."""
    by_sys = {}
    with open(os.path.join(SHARED, "data", "wmt", f"{pair}.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            by_sys.setdefault(r["system"], []).append(r)
    systems = sorted(by_sys)
    for rows in by_sys.values():
        rows.sort(key=lambda r: r["seg_id"])
    base = by_sys[systems[0]]
    return systems, {s: [r["hyp"] for r in by_sys[s]] for s in systems}, [r["ref"] for r in base], [r["ref2"] for r in base]


def repeat_rows(rows, n):
    """The first n rows of rows repeated."""
    return (rows * (n // len(rows) + 1))[:n]


def write_jsonl(path, objs):
    """One JSON object a line (UTF-8, non-ASCII kept)."""
    with open(path, "w", encoding="utf-8") as f:
        for o in objs:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")


def write_row_files(mteval, tmp, rows):
    """Writes rows (hyp, ref, system) into tmp as line-aligned hyp.txt and ref.txt, as rows.jsonl, and as
    rows.parquet (converted by `mteval sql`); returns the paths (hyp, ref, parquet)."""
    hyp, ref, jl, pq = (os.path.join(tmp, n) for n in ("hyp.txt", "ref.txt", "rows.jsonl", "rows.parquet"))
    with open(hyp, "w", encoding="utf-8") as h, open(ref, "w", encoding="utf-8") as r:
        for x in rows:
            h.write(x["hyp"] + "\n")
            r.write(x["ref"] + "\n")
    write_jsonl(jl, ({"hyp": x["hyp"], "ref": x["ref"], "system": x["system"]} for x in rows))
    subprocess.run([mteval, "sql", "-c", f"SELECT * FROM '{jl}'", "-o", pq], check=True, capture_output=True)
    return hyp, ref, pq


# Running and timing.

def timed(cmd, **kw):
    """Runs cmd (checked, output captured as text); returns (wall seconds, stdout)."""
    t = time.perf_counter()
    p = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
    return time.perf_counter() - t, p.stdout


def best(cmd, repeats, **kw):
    """The shortest of repeats timed runs of cmd (keyword arguments as for timed), and the stdout of the last."""
    runs = [timed(cmd, **kw) for _ in range(repeats)]
    return min(t for t, _ in runs), runs[-1][1]


def run(cmd, inp=None):
    """Runs cmd (checked) with the file inp (default: nothing) as standard input; returns its stdout."""
    with open(inp, encoding="utf-8") if inp else open(os.devnull) as f:
        return subprocess.run(cmd, stdin=f, capture_output=True, text=True, check=True).stdout


def oracle_cmd(python, *args):
    """The command line of `oracle.py ARGS` ($MTEVAL_SHARED_DIR/oracle) under python."""
    return [python, os.path.join(SHARED, "oracle", "oracle.py"), *args]


def ndjson(text):
    """The JSON objects of text, one a line."""
    return [json.loads(l) for l in text.splitlines()]


# Sentence-score benchmarks (bench_*.py).

SENTENCE_SCORER = r"""
import sys
{setup}
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
with open(sys.argv[3], 'w') as out:
    for h, r in zip(hyps, refs):
        out.write(repr({score}) + '\n')
"""


def sentence_scorer(setup, score):
    """Python code for `python -c CODE HYP REF OUT`: runs setup, then writes repr(score) for each line pair
    (h, r) of the files HYP and REF, one a line, to OUT."""
    return SENTENCE_SCORER.format(setup=setup, score=score)


def sentence_bench(args, tmp, rows, scorer_out, setup, score, score_opts, metric):
    """Whole-process sentence scores of rows (written into tmp by write_row_files), timed: a fresh
    `python -c` (args.python) that runs setup, then writes repr(score) for each row's (h, r) to tmp/SCORER_OUT;
    `mteval score --hyp H --ref R SCORE_OPTS --sentence`; `mteval score rows.parquet -m METRIC -o scored.parquet`.
    Returns (the largest |difference| between the Python and mteval sentence scores, [the three times in seconds])."""
    hyp, ref, pq = write_row_files(args.mteval, tmp, rows)
    ref_out = os.path.join(tmp, scorer_out)
    t_ref, _ = timed([args.python, "-c", sentence_scorer(setup, score), hyp, ref, ref_out])
    t_txt, out = timed([args.mteval, "score", "--hyp", hyp, "--ref", ref, *score_opts, "--sentence", "-w", "17"])
    t_pq, _ = timed([args.mteval, "score", pq, "-m", metric, "-o", os.path.join(tmp, "scored.parquet")])
    return max_sentence_diff(ref_out, out, len(rows)), [t_ref, t_txt, t_pq]


def max_sentence_diff(ref_out, mteval_out, n):
    """The largest |difference| between the scores in the file ref_out (one a line) and the sentence scores
    (second tab-separated field) in mteval's output; both must hold n scores."""
    ref_scores = [float(l) for l in open(ref_out)]
    mt = [float(l.split("\t")[1]) for l in mteval_out.splitlines() if "\t" in l]
    assert len(ref_scores) == len(mt) == n, (len(ref_scores), len(mt))
    return max(abs(a - b) for a, b in zip(ref_scores, mt))


def print_speed_table(n, width, vs, vs_width, labels, times):
    """A table of timings over n rows (a label of width characters and seconds, each), each with its rows/s
    and its speed-up over the first, in a column headed vs of vs_width characters."""
    print(f"{'what':{width}s} {'seconds':>8s} {'rows/s':>10s} {vs:>{vs_width}s}")
    for label, t in zip(labels, times):
        print(f"{label:{width}s} {t:8.2f} {n / t:10.0f} {times[0] / t:{vs_width - 1}.1f}x")


# Differential tests (diff_*.py).

def move_block(rng, words, longest):
    """Moves a random run of 1 to longest words (at most all) of the list words, in place, to a random place."""
    n = rng.randint(1, min(longest, len(words)))
    s = rng.randrange(len(words) - n + 1)
    block = words[s:s + n]
    del words[s:s + n]
    t = rng.randint(0, len(words))
    words[t:t] = block


def diff_variant(python, mteval, name, width, cases, inp, oracle_args, query, agree, bad):
    """One option set of a differential test on cases (also in the JSONL file inp): the oracle
    (`oracle.py ORACLE_ARGS < inp`, rows by id) against `mteval sql -c QUERY` (rows of id and s). Prints a
    MISMATCH line for each case where agree(expected, got) is false, while the count of mismatches (bad
    counting on) is at most 10, then a line with both times (of the two processes only). Returns (bad, expected, got)."""
    t0 = time.time()
    ora = run(oracle_cmd(python, *oracle_args), inp)
    t1 = time.time()
    out = run([mteval, "sql", "-c", query, "--format", "ndjson"])
    t2 = time.time()
    expected = {r["id"]: r for r in ndjson(ora)}
    got = {r["id"]: r["s"] for r in ndjson(out)}
    for c in cases:
        e, g = expected[c["id"]], got.get(c["id"])
        if not agree(e, g):
            bad += 1
            if bad <= 10:
                print("MISMATCH", name, json.dumps(c, ensure_ascii=False), "expected", e, "got", g)
    print(f"{name:{width}s} {len(cases)} cases  sacrebleu {t1 - t0:6.1f}s  mteval {t2 - t1:5.2f}s")
    return bad, expected, got
