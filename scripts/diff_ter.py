#!/usr/bin/env python3
"""Differential test of mteval's TER against sacrebleu 2.6.0 (through ../shared/oracle).

Builds N random perturbed (hyp, refs) cases from the shared WMT sentences
(word drops, duplicates, substitutions, block moves near and far, case and
punctuation changes, odd whitespace, empty strings, CJK, 1-3 references),
scores them with the oracle and with `mteval sql` for every TER option set,
and reports every disagreement (integer edits must be equal, scores within 1e-9).

With --exotic P, a fraction P of the cases also carries the EXOTIC characters
below (and random code points) in its words and between them.

Usage: python3 scripts/diff_ter.py [--n 3000] [--seed 1] [--exotic 0] [--only default,no_punct]
                                   [--mteval target/release/mteval]
Needs the oracle venv (see ../shared/oracle/README.md); exits 1 on any mismatch.
"""
import os, random, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import diff_variant, load_wmt_rows, move_block, tool_args, write_jsonl  # noqa: E402

VARIANTS = {
    "default": ([], ""),
    "case_sensitive": (["--case-sensitive"], "case:mixed"),
    "normalized": (["--normalized"], "norm:yes"),
    "no_punct": (["--no-punct"], "punct:no"),
    "asian_support": (["--asian-support"], "asian:yes"),
    "normalized_asian": (["--normalized", "--asian-support"], "norm:yes|asian:yes"),
    "no_punct_asian": (["--no-punct", "--asian-support"], "punct:no|asian:yes"),
    "all": (["--normalized", "--no-punct", "--asian-support", "--case-sensitive"], "norm:yes|punct:no|asian:yes|case:mixed"),
}
ODD = ["\t", "\u00a0", "\u001c", "\u3000", "\u200b", "  ", "\n", "\r\n"]
PUNCT = [".", ",", "!", "?", "'s", "-", "&amp;", "(", ")", "\"", "。", "，", "1,000.5", "1990-2000"]
# --exotic: characters where Python's and Rust's notions of case, whitespace,
# punctuation and CJK can part: final sigma and its neighbours, case mappings
# newer than Python 3.11's Unicode 14 (U+A7CB, U+10D50), properties that
# changed since (U+0295, U+1171E), one-to-many lower cases (U+0130), Python
# whitespace that Rust lacks (U+001C..U+001F, U+0085), invisible non-spaces,
# combining marks, the TER tokenizer's CJK and Asian punctuation ranges and
# their neighbours, astral characters, HTML entities and number punctuation.
EXOTIC = (["Σ", "Α", "σ", "ς", "Β", "\u0295", "\ua7cb", "\u0264", "\U00010d50", "\U0001171e", "\u1ad0", "İ", "ı", "ß",
           "ẞ", "ǅ", "ﬁ", "\u212a", "\u2126", "ſ", "µ", "\u0301", "\u0308", "\u0345", "\u200b", "\u200d", "\ufeff",
           "\u00ad", "\u2060", "\u001c", "\u001f", "\u0085", "\u2028", "\u00a0", "\u3000", "\u180e", "中", "日", "の",
           "カ", "한", "Ａ", "０", "ｶ", "、", "。", "「", "」", "・", "，", "．", "？", "\u3008", "\u3011", "\u3014", "\u301f",
           "\u3020", "\uff61", "\uff65", "\u30fb", "\u2e80", "\u31ef", "\u4dbf", "\u9fff", "\uac00", "\ud7a3",
           "\U00020000", "👍", "🏽", "🇩", "🇪", "&quot;", "&lt;", "&gt;", "&amp;", "n't", "'s", "1,000.5", "-",
           "--", "...", "…", "«", "»", "„", "“", "”", "’", "—", "¿", "¡", "°", "½", "²", "١", "\t", "\r\n"]
          + list("!\"#$%&'()*+,./:;<=>?@[\\]^_`{|}~"))


def exotic_word(rng):
    """1-4 characters from EXOTIC or anywhere in Unicode (no surrogates)."""
    out = ""
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.8:
            out += rng.choice(EXOTIC)
        else:
            cp = rng.randrange(0x20, 0x30000 if r < 0.97 else 0x110000)
            out += chr(cp) if not 0xD800 <= cp <= 0xDFFF else "x"
    return out


def load_sentences():
    """The non-empty references and hypotheses of the shared WMT rows (each row's ref, then its hyp)."""
    return [s for r in load_wmt_rows() for s in (r["ref"], r["hyp"]) if s]


def perturb(rng, words, vocab):
    w = list(words)
    for _ in range(rng.randint(0, 6)):
        op = rng.random()
        if not w:
            w.append(rng.choice(vocab))
            continue
        i = rng.randrange(len(w))
        if op < 0.15:
            del w[i]
        elif op < 0.25:
            w.insert(i, w[i])
        elif op < 0.45:
            w[i] = rng.choice(vocab)
        elif op < 0.75:
            move_block(rng, w, 12)
        elif op < 0.85:
            w[i] = w[i].upper() if rng.random() < 0.5 else w[i].capitalize()
        else:
            w[i] = w[i] + rng.choice(PUNCT)
    return w


def join(rng, words):
    if not words:
        return rng.choice(["", " ", "\t"])
    out = words[0]
    for x in words[1:]:
        out += (rng.choice(ODD) if rng.random() < 0.03 else " ") + x
    return out


def make_cases(n, seed, exotic=0.0):
    """N cases; with probability `exotic` a case also gets EXOTIC words in
    its shared base and odd characters spliced into its strings."""
    rng = random.Random(seed)
    sents = load_sentences()
    vocab = sorted({w for s in sents[:4000] for w in s.split()})[:3000] + ["東京", "北京", "ひらがな", "カタカナ"]
    cases = []
    for k in range(n):
        base = rng.choice(sents).split()
        if rng.random() < 0.7:  # mostly short-to-medium, some long
            s = rng.randrange(max(1, len(base)))
            base = base[s:s + rng.randint(0, 25)]
        if rng.random() < 0.1:
            base = [rng.choice(vocab[:30]) for _ in range(rng.randint(0, 60))]  # repetitive
        odd = rng.random() < exotic
        if odd:
            for _ in range(rng.randint(1, 6)):
                base.insert(rng.randint(0, len(base)), exotic_word(rng))
        ref = join(rng, base)
        nrefs = rng.choice([1, 1, 1, 2, 3])
        refs = [ref] + [join(rng, perturb(rng, base, vocab)) for _ in range(nrefs - 1)]
        hyp = join(rng, perturb(rng, base, vocab))
        if odd:
            for _ in range(rng.randint(0, 3)):
                at = rng.randint(0, len(hyp))
                hyp = hyp[:at] + exotic_word(rng) + hyp[at:]
        if rng.random() < 0.02:
            hyp = ""
        if rng.random() < 0.02:
            refs[0] = ""
        cases.append({"id": k, "hyp": hyp, "refs": refs})
    return cases


def main():
    args = tool_args(n=3000, seed=1, exotic=(0.0, "fraction of cases with EXOTIC characters"),
                     only=("", "comma-separated option sets to run (default: all of VARIANTS)"))
    cases = make_cases(args.n, args.seed, args.exotic)
    tmp = tempfile.mkdtemp(prefix="mteval-diff-")
    inp = os.path.join(tmp, "cases.jsonl")
    write_jsonl(inp, cases)
    total = bad = 0
    only = [v for v in args.only.split(",") if v]
    unknown = [v for v in only if v not in VARIANTS]
    if unknown:
        ap.error(f"unknown option sets {unknown}; known: {', '.join(VARIANTS)}")

    def agree(e, g):
        return not ("error" in e or g is None or e["num_edits"] != g["num_edits"] or abs(e["score"] - g["score"]) > 1e-9
                    or abs(e["ref_length"] - g["ref_len"]) > 1e-9)

    for name, (flags, opts) in VARIANTS.items():
        if only and name not in only:
            continue
        q = f"SELECT id, ter_stats(hyp, refs, '{opts}') AS s FROM '{inp}' ORDER BY id"
        bad, _, _ = diff_variant(args.python, args.mteval, name, 18, cases, inp, ["ter", *flags], q, agree, bad)
        total += len(cases)
    print(f"{total} cases, {bad} mismatches (seed {args.seed})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
