#!/usr/bin/env python3
"""Differential test of mteval's WER family (kernels/src/wer) against jiwer 4.0.0.

Builds N random cases, each a small corpus (1-5 rows; a row is a hypothesis
with 1-3 references): random vocabularies from 2 to 300 words (small ones make
many tied alignments), repeated words, empty and whitespace-only strings, odd
whitespace (tab, NBSP, U+001C, U+3000, newlines, doubled spaces), English
contractions, Kaldi non-words, case and final sigma, a literal `*`, and about 2%
long rows (thousands of tokens, past rapidfuzz's Hirschberg threshold, some
very asymmetric, some with thousands of distinct words). Case k runs option set k mod 4 (unit word/char x transform
default/standardize). jiwer scores each row against every reference, keeps the
first with the fewest errors (S+D+I), then runs process_words /
process_characters on the corpus of chosen pairs; mteval runs
`kernels/examples/wer_cases.rs`. Per row the chosen reference, the counts
(H, S, D, I, N, P) and the chunks must be equal, the corpus wer/mer/wil/wip
bit-equal, and the visualize_alignment text (random show_measures,
skip_correct, line_width; not on long rows) identical.

Usage: python3 scripts/diff_wer.py --python /path/to/venv/bin/python [--n 4000] [--seed 1]
                                   [--bin target/release/examples/wer_cases]
       python3 scripts/diff_wer.py --python ... --case-table > kernels/src/wer/jiwer_cases.jsonl
The --python interpreter needs jiwer==4.0.0 (which pulls rapidfuzz). Without --bin the kernel side is
`cargo run --release -q --example wer_cases` in kernels/. Exits 1 on any mismatch.
"""
import argparse, json, os, random, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, move_block  # noqa: E402

VARIANTS = ["", "unit:char", "transform:standardize", "unit:char|transform:standardize"]


# The jiwer side (run as `PYTHON diff_wer.py --oracle`, JSON lines in and out).

def oracle():
    import jiwer
    import jiwer.transforms as tr

    char_std = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(),
                           tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip(),
                           tr.ReduceToListOfListOfChars()])
    from importlib.metadata import version
    if version("jiwer") != "4.0.0":
        sys.exit(f"jiwer {version('jiwer')} is not 4.0.0")

    def setup(opts):
        char, std = "unit:char" in opts, "transform:standardize" in opts
        if char:
            return (char_std if std else jiwer.cer_default), True
        return (jiwer.wer_standardize if std else jiwer.wer_default), False

    def run(case):
        t, char = setup(case["opts"])
        kw = dict(reference_transform=t, hypothesis_transform=t)
        chosen = []
        for row in case["rows"]:
            best = None
            for k, r in enumerate(row["refs"]):
                o = jiwer.process_words(r, row["hyp"], **kw)
                e = o.substitutions + o.deletions + o.insertions
                if best is None or e < best[0]:
                    best = (e, k)
            chosen.append(best[1])
        refs = [row["refs"][k] for row, k in zip(case["rows"], chosen)]
        hyps = [row["hyp"] for row in case["rows"]]
        out = jiwer.process_words(refs, hyps, **kw)
        rows = []
        for k, r, h, al in zip(chosen, out.references, out.hypotheses, out.alignments):
            c = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
            for ch in al:
                c[ch.type] += (ch.hyp_end_idx - ch.hyp_start_idx) if ch.type == "insert" else (ch.ref_end_idx - ch.ref_start_idx)
            rows.append({"ref_index": k,
                         "counts": [c["equal"], c["substitute"], c["delete"], c["insert"], len(r), len(h)],
                         "chunks": [[ch.type, ch.ref_start_idx, ch.ref_end_idx, ch.hyp_start_idx, ch.hyp_end_idx] for ch in al]})
        visual = None
        if case.get("visual") is not None:
            v = case["visual"]
            vo = (jiwer.process_characters if char else jiwer.process_words)(refs, hyps, **kw)
            visual = jiwer.visualize_alignment(vo, show_measures=v["show_measures"], skip_correct=v["skip_correct"],
                                               line_width=v["line_width"])
        return {"id": case["id"], "rows": rows, "wer": out.wer, "mer": out.mer, "wil": out.wil, "wip": out.wip,
                "visual": visual}

    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            res = run(case)
        except Exception as e:  # noqa: BLE001 -- the exception is the expected value
            res = {"id": case["id"], "error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(res) + "\n")


# Cases.

SEPS = [" "] * 30 + ["  ", "\t", "\u00a0", "\u001c", "\u3000", "\n", " \t ", "\u00a0\u00a0", "\r\n", "\u2028"]
SPECIAL = ["don't", "it's", "I'M", "won't", "Let's", "they've", "we'd", "you'll", "can't", "ain't", "'s", "'",
           "[noise]", "<unk>", "[laugh", "x>y", "<a]", "[", "]", "<>", "ΟΔΟΣ", "Σ", "σ", "İstanbul", "STRASSE", "ß",
           "*", "**", "東京", "日本語", "👍", "e\u0301", "\u200b", "A", "a", "The", "the"]
LETTERS = "abcdefghij"


def make_vocab(rng):
    size = rng.choice([2, 3, 5, 20, 300])
    vocab = set()
    while len(vocab) < size:
        vocab.add("".join(rng.choice(LETTERS[:rng.choice([2, 4, 10])]) for _ in range(rng.randint(1, 6))))
    vocab = sorted(vocab)
    if rng.random() < 0.4:
        vocab += rng.sample(SPECIAL, rng.randint(1, 8))
    return vocab


def join(rng, words, odd):
    out = ""
    for i, w in enumerate(words):
        if i:
            out += rng.choice(SEPS) if odd else " "
        out += w
    if odd and rng.random() < 0.3:
        out = rng.choice(SEPS) + out
    if odd and rng.random() < 0.3:
        out += rng.choice(SEPS)
    return out


def perturb(rng, words, vocab, edits):
    w = list(words)
    for _ in range(edits):
        op = rng.random()
        i = rng.randrange(len(w) + 1)
        if op < 0.3 and i < len(w):
            del w[i]
        elif op < 0.55:
            w.insert(i, rng.choice(vocab))
        elif op < 0.8 and i < len(w):
            w[i] = rng.choice(vocab)
        elif op < 0.9 and i + 1 < len(w):
            w[i], w[i + 1] = w[i + 1], w[i]
        elif w:
            move_block(rng, w, 5)
    return w


def make_row(rng, long):
    vocab = make_vocab(rng)
    odd = rng.random() < 0.35
    if long:
        if rng.random() < 0.3:  # thousands of distinct words: sparse match masks on the kernel side
            vocab = [f"u{i}" for i in range(rng.randint(5000, 30000))]
        kind = rng.random()
        if kind < 0.6:  # both long: past len1 * len2 >= 4M tokens (chars are longer still)
            n = rng.randint(2100, 3500)
            base = [rng.choice(vocab) for _ in range(n)]
            hyp = perturb(rng, base, vocab, rng.choice([5, 50, n // 3]))
        elif kind < 0.8:  # short reference, very long hypothesis
            base = [rng.choice(vocab) for _ in range(rng.randint(65, 120))]
            hyp = [rng.choice(vocab) for _ in range(rng.randint(40_000, 70_000))]
        else:  # long reference, short hypothesis
            base = [rng.choice(vocab) for _ in range(rng.randint(20_000, 40_000))]
            hyp = [rng.choice(vocab) for _ in range(rng.randint(200, 400))]
        return {"hyp": join(rng, hyp, odd), "refs": [join(rng, base, odd)]}
    n = rng.choice([0, 1, 2, 3, 5, 8, 12, 20, 40, 80, 150])
    base = [rng.choice(vocab) for _ in range(rng.randint(0, n))]
    if rng.random() < 0.15:
        base = [rng.choice(vocab[:2])] * len(base)  # one repeated word
    hyp = perturb(rng, base, vocab, rng.randint(0, 6)) if rng.random() < 0.8 else \
        [rng.choice(vocab) for _ in range(rng.randint(0, n))]
    refs = [base] + [perturb(rng, base, vocab, rng.randint(1, 5)) for _ in range(rng.choice([0, 0, 0, 0, 1, 2]))]
    rng.shuffle(refs)
    texts = [join(rng, r, odd) for r in refs]
    h = join(rng, hyp, odd)
    for i in range(len(texts)):
        if rng.random() < 0.04:
            texts[i] = rng.choice(["", " ", "\t", "  \u3000 "])
    if rng.random() < 0.05:
        h = rng.choice(["", " ", "\n"])
    return {"hyp": h, "refs": texts}


def make_cases(n, seed):
    rng = random.Random(seed)
    cases = []
    for k in range(n):
        long = rng.random() < 0.02
        nrows = 1 if long or rng.random() < 0.7 else rng.randint(2, 5)
        rows = [make_row(rng, long)] if long else [make_row(rng, False) for _ in range(nrows)]
        visual = None
        if not long and rng.random() < 0.5:
            visual = {"show_measures": rng.random() < 0.7, "skip_correct": rng.random() < 0.7,
                      "line_width": rng.choice([None, None, 0, 5, 12, 30, 80])}
        cases.append({"id": k, "opts": VARIANTS[k % len(VARIANTS)], "rows": rows, "visual": visual})
    return cases


# Hand-picked cases for the unit tests' table (--case-table).

CURATED = [
    # jiwer tests/test_empty_ref.py
    ("", [("", "")]), ("", [("hello", "")]), ("", [("0 1 2 3 4", "")]), ("", [("", "hello")]),
    ("", [("hello world", "hello world"), ("done", "")]), ("", [("hello world", "hello world"), ("", "")]),
    ("unit:char", [("", "")]), ("unit:char", [("a", "")]), ("unit:char", [("abd", "")]),
    ("unit:char", [("", "a")]), ("unit:char", [("", "abc")]),
    # jiwer tests/test_measures.py
    ("", [("X X Y Y", "X")]), ("", [("X Z", "X Y X")]), ("", [("short one here", "shoe order one")]),
    ("", [("i am a short ugly duckling", "i am a considerably longer duckling")]),
    # ties: transpositions, repeats, rotations
    ("", [("b a", "a b")]), ("", [("a b a b", "b a b a")]), ("", [("a a a", "a")]), ("", [("a", "a a a")]),
    ("", [("x a b c", "a b c x")]), ("", [("c b a", "a b c")]), ("", [("a b b a", "b a a b")]),
    ("unit:char", [("ba", "ab")]), ("unit:char", [("abd  e", "abc de")]), ("unit:char", [("kitten", "sitting")]),
    ("unit:char", [("this was a messy test", "this is a test of skill")]),
    # Python whitespace
    ("", [("a\tb c", "a b c")]), ("", [("a\u00a0\u00a0b", "a b")]), ("", [("a\u001cb", "a b")]),
    ("", [("\u3000a  b\u2028", "a b")]), ("", [("a \t b", "a b")]), ("", [("   ", "x")]),
    ("unit:char", [("  a  b ", "a b")]), ("unit:char", [("\u001ca\u00a0b\u001f", "a b")]),
    # standardize
    ("transform:standardize", [("She'll WON'T go", "she will will not go")]),
    ("transform:standardize", [("[noise] hello <unk> world", "hello world")]),
    ("transform:standardize", [("a [b> c <d] e [f", "a c e f")]),
    ("transform:standardize", [("ΟΔΟΣ İstanbul", "οδος i̇stanbul")]),
    ("transform:standardize", [("Let's\tgo\nnow", "let us go now")]),
    ("unit:char|transform:standardize", [("It's  [x] OK", "it is ok")]),
    # several references: the fewest errors, the first on ties
    ("", [("a b c", ["a x c", "a b c d", "a b c"])]), ("", [("a b", ["x y", "a y", "y b"])]),
    ("", [("", ["a", ""])]), ("unit:char", [("abc", ["abd", "abx"])]),
]


def curated_cases():
    cases = []
    for k, (opts, pairs) in enumerate(CURATED):
        rows = [{"hyp": h, "refs": r if isinstance(r, list) else [r]} for h, r in pairs]
        cases.append({"id": k, "opts": opts, "rows": rows,
                      "visual": {"show_measures": True, "skip_correct": False, "line_width": None}})
    return cases


def print_case_table(cases, results):
    """One JSON object per line: the case as the unit test replays it, with jiwer's results."""
    for c, r in zip(cases, results):
        rows = [{"hyp": row["hyp"], "refs": row["refs"], "best": rr["ref_index"], "counts": rr["counts"],
                 "chunks": " ".join("%s%d:%d/%d:%d" % (ch[0][0].upper(), *ch[1:]) for ch in rr["chunks"])}
                for row, rr in zip(c["rows"], r["rows"])]
        print(json.dumps({"opts": c["opts"], "rows": rows,
                          "scores": [float(r[k]) for k in ("wer", "mer", "wil", "wip")], "visual": r["visual"]},
                         ensure_ascii=False))


# Driver.

def run_oracle(python, cases):
    stdin = "".join(json.dumps(c) + "\n" for c in cases)
    proc = subprocess.run([python, os.path.abspath(__file__), "--oracle"], input=stdin, capture_output=True,
                          text=True, encoding="utf-8")
    if proc.returncode != 0:
        sys.exit(f"jiwer side failed ({proc.returncode}):\n{proc.stderr}")
    return [json.loads(l) for l in proc.stdout.split("\n") if l.strip()]


def run_kernel(binary, cases):
    cmd = [os.path.abspath(binary)] if binary else ["cargo", "run", "--release", "-q", "--example", "wer_cases"]
    stdin = "".join(json.dumps(c) + "\n" for c in cases)
    proc = subprocess.run(cmd, cwd=os.path.join(ROOT, "kernels"), input=stdin, capture_output=True, text=True,
                          encoding="utf-8")
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return {r["id"]: r for r in (json.loads(l) for l in proc.stdout.split("\n") if l.strip())}


def main():
    if "--oracle" in sys.argv:
        oracle()
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--python", default=os.path.expanduser("~/.venvs/oracle/bin/python"),
                    help="a Python with jiwer==4.0.0")
    ap.add_argument("--bin", help="built wer_cases example (default: cargo run --release)")
    ap.add_argument("--case-table", action="store_true", help="print the unit tests' table (JSON Lines) and exit")
    args = ap.parse_args()
    if args.case_table:
        cases = curated_cases()
        print_case_table(cases, run_oracle(args.python, cases))
        return
    cases = make_cases(args.n, args.seed)
    t0 = time.time()
    expected = run_oracle(args.python, cases)
    t1 = time.time()
    got = run_kernel(args.bin, cases)
    t2 = time.time()
    bad = 0
    long_rows = sum(1 for c in cases for r in c["rows"] if len(r["hyp"]) > 5000 or any(len(x) > 5000 for x in r["refs"]))
    for c, e in zip(cases, expected):
        g = got.get(c["id"])
        ok = g is not None and "error" not in e and "error" not in g and g["rows"] == e["rows"] \
            and all(g[k] == e[k] for k in ("wer", "mer", "wil", "wip")) and g["visual"] == e["visual"]
        if not ok:
            bad += 1
            if bad <= 5:
                print("MISMATCH", json.dumps(c, ensure_ascii=False)[:2000], "\n  expected",
                      json.dumps(e, ensure_ascii=False)[:2000], "\n  got     ", json.dumps(g, ensure_ascii=False)[:2000])
    rows = sum(len(c["rows"]) for c in cases)
    print(f"jiwer {t1 - t0:.1f}s, kernel {t2 - t1:.1f}s")
    print(f"wer: {len(cases)} cases ({rows} rows, {long_rows} long), {bad} mismatches (seed {args.seed})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
