#!/usr/bin/env python3
"""Differential test of mteval's term match accuracy (mteval_kernels::terms)
against the reference `match_accuracy.py` of FredericOdermatt/match_accuracy.

Builds N random cases (hyp, terms, stanza-style lemmas) aimed at the corners of
the reference: odd spacing (runs of spaces, tabs, NBSP, newlines, other Unicode
whitespace, leading blanks, whitespace-only and empty predictions), Unicode
case folding under re.IGNORECASE (İ ı ſ K ß ẞ σ ς Σ µ μ ﬅ ﬆ ...), regex
metacharacters in terms, empty alternatives, terms without alternatives,
substrings and swapped case of the prediction's words, None / empty /
multi-word lemmas, and (a few) wrong word offsets. Each case is scored
  * by the reference, imported from --reference: `maximally_match(hyp, terms,
    "a-zA-Z0-9")` (exact_direct), `maximally_match_with_lemmatized(...)`
    (lemmatized_raw) and `count_matches(...)` (count), where a prediction that
    is empty or whitespace-only gets the treatment of `get_match_accuracies`
    (dropped: count = [0, 0, len(terms)]) instead of a direct call;
  * by `kernels/examples/terms_rows.rs` (exact_matches, lemmatized_matches,
    count_matches).
Every field must be equal; a raised exception is compared as the full string
"Type: message" against the kernel's InvalidInput reason.

The reference is not part of this repository. Get it at the commit the kernel
reproduces (mteval_kernels::terms::REFERENCE_COMMIT), e.g.
  git clone https://github.com/FredericOdermatt/match_accuracy /tmp/match_accuracy
  git -C /tmp/match_accuracy checkout 29547205e0b922e2eabdccc97582199e20253b67
(or the library tool's fetch of github:FredericOdermatt/match_accuracy, then
`git show 29547205e0b922e2eabdccc97582199e20253b67:match_accuracy.py`).
It needs only the standard library (CPython 3.11 is what the kernel matches).

Usage: python3 scripts/diff_terms.py --reference PATH/match_accuracy.py
           [--n 6000] [--seed 1] [--bin target/release/examples/terms_rows]
Without --bin it runs `cargo run --release -q -p mteval-kernels --example
terms_rows` (honours CARGO_TARGET_DIR). Exits 1 on any mismatch.
"""
import argparse, collections, copy, importlib.util, json, logging, os, random, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

WORDS = ["a", "b", "ab", "cat", "cats", "Cat", "the", "İ", "ı", "i", "I", "ſ", "s", "K", "\u212a", "k", "ß", "ẞ",
         "σ", "ς", "Σ", "µ", "μ", "ﬅ", "ﬆ", "\u1c80", "в", "Ɤ", "ɤ", "é", "e\u0301", "😀", "京", "5", "a5", "_",
         "foo_bar", "x-y", "a.b", ".", "C++", "(a)", "[x]", "a|b", "\\", "*", "?", "$", "^b", "{2}"]
SEPS = [" "] * 10 + ["  ", "   ", "\t", " \t", "\u00a0", "", "\n", "-", "\u3000", "\x1c", "\r"]
LEADS = ["", "", "", "", " ", "  ", "\t", "\n"]


def make_case(rng, i):
    wide = rng.random() < 0.5  # longer predictions, more terms, exact offsets
    n = rng.randint(1, 9) if wide else rng.randint(0, 6)
    hyp = rng.choice(LEADS)
    for k in range(n):
        hyp += rng.choice(WORDS)
        if k < n - 1 or rng.random() < 0.2:
            hyp += rng.choice(SEPS)
    words = hyp.split()

    def alternative():
        r = rng.random()
        if r < 0.05:
            return ""
        if r < 0.5 and words:
            j = rng.randrange(len(words))
            a = " ".join(words[j:j + rng.randint(1, 2)])
            if rng.random() < 0.3:
                a = a[:rng.randint(0, len(a))]
            if rng.random() < 0.3:
                a = a.swapcase()
            return a
        a = rng.choice(WORDS)
        return a + rng.choice(["", " ", "-"]) + rng.choice(WORDS) if rng.random() < 0.2 else a

    n_terms = rng.randint(1, 7) if wide else rng.randint(0, 5)
    terms = [[alternative() for _ in range(rng.randint(0, 3))] for _ in range(n_terms)]
    lemmas, p = [], 0
    while p < len(hyp):  # stanza-like words: maximal non-whitespace runs
        if hyp[p].isspace():
            p += 1
            continue
        q = p
        while q < len(hyp) and not hyp[q].isspace():
            q += 1
        w, r = hyp[p:q], rng.random()
        lemma = w if r < 0.4 else None if r < 0.5 else w.lower() if r < 0.7 else \
            rng.choice(["cat", "sit", "a b", "", "İ", w + "x", w[:1], w.upper()])
        s, e = p, q
        if not wide and rng.random() < 0.04:  # wrong offsets (kept 0 <= start <= end)
            e = max(s, e + rng.randint(-1, 2))
            if rng.random() < 0.3:
                s = max(0, s + rng.randint(-1, 1))
                e = max(s, e)
        lemmas.append({"lemma": lemma, "start": s, "end": e})
        p = q
    return {"id": i, "hyp": hyp, "terms": terms, "lemmas": lemmas}


def load_reference(path):
    spec = importlib.util.spec_from_file_location("match_accuracy_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    logging.getLogger("CBS").setLevel(logging.ERROR)  # silence its per-case info/warning logs
    return mod


def guarded(f, *args):
    try:
        out = f(*copy.deepcopy(args))
        return list(out) if isinstance(out, tuple) else out
    except Exception as e:  # noqa: BLE001 -- the exception is the expected value
        return {"error": f"{type(e).__name__}: {e}"}


def reference_row(ref, c):
    hyp, terms = c["hyp"], c["terms"]
    pred_l = {"lemmatized_words": [x["lemma"] for x in c["lemmas"]],
              "indices": [(x["start"], x["end"]) for x in c["lemmas"]]}
    if hyp.strip() == "":
        count = [0, 0, len(terms)]  # dropped by get_match_accuracies before count_matches
    else:
        count = guarded(ref.count_matches, hyp, pred_l, terms)
    return {"id": c["id"],
            "exact_direct": guarded(ref.maximally_match, hyp, terms, "a-zA-Z0-9"),
            "lemmatized_raw": guarded(ref.maximally_match_with_lemmatized, hyp, pred_l, terms, "a-zA-Z0-9"),
            "count": count}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True, help="path to match_accuracy.py")
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="built terms_rows example (default: cargo run --release)")
    args = ap.parse_args()
    ref = load_reference(args.reference)
    rng = random.Random(args.seed)
    cases = [make_case(rng, i) for i in range(args.n)]
    t0 = time.time()
    expected = [reference_row(ref, c) for c in cases]
    t1 = time.time()
    cmd = [os.path.abspath(args.bin)] if args.bin else ["cargo", "run", "--release", "-q", "-p", "mteval-kernels", "--example", "terms_rows"]
    stdin = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    proc = subprocess.run(cmd, cwd=ROOT, input=stdin, capture_output=True, text=True, encoding="utf-8")
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    got = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
    t2 = time.time()
    bad, kinds = 0, collections.Counter()
    for c, e in zip(cases, expected):
        g = got.get(c["id"])
        for k in ("exact_direct", "lemmatized_raw", "count"):
            v = e[k]
            kinds[(k, v["error"].split(":")[0] if isinstance(v, dict) else "value")] += 1
        if g is None or any(g.get(k) != e[k] for k in ("exact_direct", "lemmatized_raw", "count")):
            bad += 1
            if bad <= 10:
                print("MISMATCH", json.dumps(c, ensure_ascii=False), "\n  expected", json.dumps(e, ensure_ascii=False),
                      "\n  got     ", json.dumps(g, ensure_ascii=False))
    for k in ("exact_direct", "lemmatized_raw", "count"):
        print(f"{k:15s}", ", ".join(f"{t} {n}" for (f, t), n in sorted(kinds.items()) if f == k))
    print(f"reference {t1 - t0:.1f}s, kernel {t2 - t1:.1f}s")
    print(f"term accuracy: {len(cases)} cases, {bad} mismatches (seed {args.seed})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
