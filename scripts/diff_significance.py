#!/usr/bin/env python3
"""Random differential test of `mteval compare` (paired bootstrap / approximate randomization tests and
single-system bootstrap confidence) against sacrebleu 2.6.0, run in-process.

Each case is a random small corpus: 2-4 systems (1 for a confidence case) of 5-300 segments, references
drawn from the shared WMT rows (sometimes two references), hypotheses made by perturbing them (dropped,
swapped, duplicated words, random case, odd Unicode punctuation and symbols, empty and whitespace-only
lines), a random seed, test (bs with n in 50..1000, ar with n in 100..5000, or a confidence interval) and
a random subset of bleu/chrf/chrf++/ter with random options. The corpus is written as text files and run
through

    mteval compare REF [REF2] -i SYS1 SYS2 ... -m METRICS --options METRIC=OPTS ...
        (--paired-bs --paired-bs-n N | --paired-ar --paired-ar-n N | --confidence --confidence-n N)
        --seed S --format json

while sacrebleu reads the same files as its command line does (split at \\n, each line rstrip()ped) and
runs PairedTest (SACREBLEU_SEED=S; see make_significance_golden.py) or corpus_score(n_bootstrap=N).
Scores, p-values, means and CIs must be equal as floats (no tolerance); signatures must be equal once
mteval's `impl:` and `ngram:` entries are dropped (--no-signatures skips them). Seeds are never 0 (sacrebleu leaves the
compared systems unseeded then).

Usage (an interpreter with sacrebleu 2.6.0, e.g. the oracle venv):
    python scripts/diff_significance.py [--cases 200] [--seed 1] [--mteval target/release/mteval]
    python scripts/diff_significance.py --dry-run --cases 5     # sacrebleu side only; prints a sample case
Exits 1 on any mismatch; the files of failing cases are kept (their directory is printed). Cases where
sacrebleu itself raises are skipped and counted: corpus_score(n_bootstrap=N) for chrF/TER raises TypeError
when some bootstrap samples score as Python floats (nothing to count) and others as numpy float32, since
statistics.mean cannot mix them.
"""
import argparse, json, os, random, shlex, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, load_wmt_rows  # noqa: E402
from diff_ter import perturb  # noqa: E402
from make_significance_golden import confidence, mteval_options, paired  # noqa: E402

ODD = ["«", "»", "—", "–", "…", "、", "。", "！", "？", "€", "™", "„", "“", "”", "‹", "›", "¿", "¡", "·", "•", "§",
       "°", "±", "×", "№", "‰", "※", "〜", "「", "」", "【", "】", "（", "）", "：", "，", "．", "©", "®", "$", "£",
       "¥", "%", "&", "&amp;", "@", "#", "'", '"', "-", "--", "...", "(", ")", ".", ",", "!", "?", ";", ":", "/",
       "1,000.5", "3.14", "24/7", "👍", "中文", "日本語", "Σ", "ß", "İ", "\u0301", "\u200b", "\u00a0", "\u3000",
       "\u2028", "\u0085", "\t", "\r", "\u001c"]
BLANK = ["", " ", "\t", "  \u3000", "\u00a0", " \r"]


def noisy(rng, text, vocab):
    """text perturbed: words dropped, swapped, duplicated, re-cased; odd punctuation; sometimes blank."""
    r = rng.random()
    if r < 0.03:
        return rng.choice(BLANK)
    words = perturb(rng, text.split(), vocab)
    for _ in range(rng.choice([0, 0, 0, 1, 2, 5])):
        i = rng.randint(0, len(words))
        if rng.random() < 0.5 or not words or i == len(words):
            words.insert(i, rng.choice(ODD))
        else:
            words[i] = words[i] + rng.choice(ODD) if rng.random() < 0.5 else rng.choice(ODD) + words[i]
    out = " ".join(words)
    r = rng.random()
    out = out.upper() if r < 0.03 else out.lower() if r < 0.06 else out.swapcase() if r < 0.08 else out
    return out.replace("\n", " ")


def random_options(rng, kind):
    """Random sacrebleu keyword arguments for bleu, chrf (shared by chrf and chrf++: no word_order) or ter."""
    o = {}
    if kind == "bleu":
        if rng.random() < 0.6:
            o["tokenize"] = rng.choice(["13a", "none", "char", "zh", "intl"])
        if rng.random() < 0.6:
            o["smooth_method"] = rng.choice(["exp", "none", "floor", "add-k"])
            if o["smooth_method"] in ("floor", "add-k") and rng.random() < 0.6:
                o["smooth_value"] = rng.choice([0.01, 0.1, 0.25, 0.3, 0.5, 1.0, 2.0, 0.7])
        if rng.random() < 0.2:
            o["lowercase"] = True
        if rng.random() < 0.15:
            o["effective_order"] = True
        if rng.random() < 0.1:
            o["max_ngram_order"] = rng.randint(1, 6)
    elif kind == "chrf":
        if rng.random() < 0.2:
            o["char_order"] = rng.choice([1, 3, 4, 5, 7])
        if rng.random() < 0.2:
            o["beta"] = rng.choice([1, 3])
        for k in ("lowercase", "whitespace", "eps_smoothing"):
            if rng.random() < 0.2:
                o[k] = True
    else:
        for k in ("normalized", "case_sensitive", "no_punct", "asian_support"):
            if rng.random() < 0.25:
                o[k] = True
    return o


def make_case(rng, rows, vocab):
    test = rng.choices(["bs", "ar", "ci"], [0.4, 0.4, 0.2])[0]
    nseg = rng.randint(5, 300) if rng.random() < 0.5 else rng.randint(5, 40)
    picks = [rng.choice(rows) for _ in range(nseg)]
    ref = [p["ref"] if rng.random() < 0.85 else noisy(rng, p["ref"], vocab) for p in picks]
    refs = [ref]
    if rng.random() < 0.3:
        refs.append([p["ref2"] if p["ref2"] and rng.random() < 0.8 else noisy(rng, r, vocab) for p, r in zip(picks, ref)])
    nsys = 1 if test == "ci" else rng.randint(2, 4)
    systems = [[p["hyp"] if rng.random() < 0.2 else noisy(rng, r, vocab) for p, r in zip(picks, ref)] for _ in range(nsys)]
    if rng.random() < 0.05:  # degenerate corpora: half the lines blank (bootstrap samples with nothing to count)
        refs = [[x if rng.random() < 0.5 else "" for x in r] for r in refs]
        systems = [[x if rng.random() < 0.5 else "" for x in h] for h in systems]
    names = rng.sample(["bleu", "chrf", "chrf++", "ter"], rng.randint(1, 4))
    names = [m for m in ["bleu", "chrf", "chrf++", "ter"] if m in names]
    opts = {k: random_options(rng, k) for k in ("bleu", "chrf", "ter")}
    n = {"bs": rng.randint(50, 1000), "ar": rng.randint(100, 5000), "ci": rng.randint(50, 1000)}[test]
    seed = rng.choice([rng.randint(1, 100), rng.randint(1, 2**32 - 1), rng.randint(1, 2**64 - 1)])
    return {"test": test, "n": n, "seed": seed, "metrics": names, "options": opts, "refs": refs, "systems": systems}


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(x + "\n" for x in lines))


def read_cli(path):
    """A text file as sacrebleu's command line reads it."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip() for line in f]


def specs_of(case):
    """[(mteval name, sacrebleu kind, sacrebleu options)] of the case's metrics."""
    out = []
    for m in case["metrics"]:
        kind = "chrf" if m.startswith("chrf") else m
        o = dict(case["options"][kind])
        if m == "chrf++":
            o["word_order"] = 2
        out.append((m, kind, o))
    return out


def sacrebleu_side(case, ref_files, sys_files):
    """{score name: {"signature", "results": [per system {score, p_value, mean, ci}]}} from sacrebleu."""
    refs = [read_cli(f) for f in ref_files]
    hyps = [read_cli(f) for f in sys_files]
    specs = [(kind, o) for _, kind, o in specs_of(case)]
    if case["test"] == "ci":
        out = confidence(hyps[0], refs, specs, case["n"], case["seed"])
    else:
        named = [(("Baseline: " if i == 0 else "") + f, h) for i, (f, h) in enumerate(zip(sys_files, hyps))]
        out = paired(named, refs, specs, case["test"], case["n"], -1, case["seed"])
    return {m["name"]: m for m in out}


def mteval_cmd(mteval, case, ref_files, sys_files):
    cmd = [mteval, "compare", *ref_files, "-i", *sys_files, "-m", *case["metrics"]]
    for m, kind, _ in specs_of(case):
        # Options go to each metric by its own name (chrf and chrf++ share the case's chrF options).
        o = mteval_options(kind, case["options"][kind])
        if o:
            cmd += ["--options", f"{m}={o}"]
    flag = {"bs": "--paired-bs", "ar": "--paired-ar", "ci": "--confidence"}[case["test"]]
    return cmd + [flag, f"{flag}-n", str(case["n"]), "--seed", str(case["seed"]), "--format", "json"]


def mteval_side(cmd, case, sys_files):
    """The same shape as sacrebleu_side's, from mteval's JSON."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    data = json.loads(p.stdout)
    got = {}
    if case["test"] == "ci":
        for e in data:
            got[e["name"]] = {"signature": e.get("signature"), "results": [{
                "score": e.get("score"), "p_value": e.get("p_value"),
                "mean": e.get("mean", e.get("confidence_mean")), "ci": e.get("ci", e.get("confidence_var"))}]}
        return got
    for i, entry in enumerate(data):
        want = ("Baseline: " if i == 0 else "") + sys_files[i]
        if entry.get("system") != want:
            raise RuntimeError(f"system {i} is named {entry.get('system')!r}, expected {want!r}")
        for name, r in entry.items():
            if name == "system":
                continue
            g = got.setdefault(name, {"signature": r.get("signature"), "results": []})
            g["results"].append({k: r.get(k) for k in ("score", "p_value", "mean", "ci")})
    return got


def drop_impl(sig):
    """mteval's signature less what sacrebleu's lacks: `impl:`, BLEU's `ngram:` and chrF's `beta:`."""
    return "|".join(p for p in (sig or "").split("|") if not p.startswith(("impl:", "ngram:", "beta:")))


def compare(expected, got, signatures):
    """A list of differences (strings)."""
    diffs = []
    for name, e in expected.items():
        g = got.get(name)
        if g is None:
            diffs.append(f"{name}: missing in mteval's output (has {sorted(got)})")
            continue
        if signatures and drop_impl(g["signature"]) != e["signature"]:
            diffs.append(f"{name} signature: expected {e['signature']!r} got {g['signature']!r}")
        if len(g["results"]) != len(e["results"]):
            diffs.append(f"{name}: {len(g['results'])} systems, expected {len(e['results'])}")
            continue
        for i, (er, gr) in enumerate(zip(e["results"], g["results"])):
            for k in ("score", "p_value", "mean", "ci"):
                a, b = er[k], gr[k]
                if (a is None) != (b is None) or (a is not None and float(a) != float(b)):
                    diffs.append(f"{name} system {i} {k}: expected {a!r} got {b!r}")
    for name in got:
        if name not in expected:
            diffs.append(f"{name}: unexpected in mteval's output")
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="seed of the case generator")
    ap.add_argument("--mteval", default=os.path.join(ROOT, "target", "release", "mteval"))
    ap.add_argument("--dry-run", action="store_true", help="run only sacrebleu; print the first case")
    ap.add_argument("--no-signatures", action="store_true", help="do not compare signatures")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = [r for r in load_wmt_rows() if r["ref"]]
    vocab = sorted({w for r in rows[:4000] for w in r["ref"].split()})[:3000]
    root = tempfile.mkdtemp(prefix="mteval-diff-sig-")
    bad, failures, crashed, t_sb, t_mt = 0, [], [], 0.0, 0.0
    for k in range(args.cases):
        case = make_case(rng, rows, vocab)
        d = os.path.join(root, f"case{k:04d}")
        os.makedirs(d)
        ref_files = [os.path.join(d, f"ref{j}.txt") for j in range(len(case["refs"]))]
        sys_files = [os.path.join(d, f"sys{j}.txt") for j in range(len(case["systems"]))]
        for f, lines in zip(ref_files + sys_files, case["refs"] + case["systems"]):
            write_lines(f, lines)
        cmd = mteval_cmd(args.mteval, case, ref_files, sys_files)
        t0 = time.time()
        try:
            expected = sacrebleu_side(case, ref_files, sys_files)
        except Exception as e:  # noqa: BLE001 - e.g. corpus_score(n_bootstrap) mixing float32 and float
            crashed.append((k, shlex.join(cmd), f"{type(e).__name__}: {e}"))
            shutil.rmtree(d)
            continue
        finally:
            t_sb += time.time() - t0
        if args.dry_run:
            if k == 0:
                print("command:", shlex.join(cmd))
                print("expected:", json.dumps(expected, indent=1))
            shutil.rmtree(d)
            continue
        t0 = time.time()
        try:
            diffs = compare(expected, mteval_side(cmd, case, sys_files), not args.no_signatures)
        except (RuntimeError, ValueError, KeyError, TypeError, AttributeError) as e:
            diffs = [f"mteval failed: {type(e).__name__}: {e}"]
        t_mt += time.time() - t0
        if diffs:
            bad += 1
            failures.append((k, cmd, diffs))
            with open(os.path.join(d, "cmd.json"), "w") as f:
                json.dump({"cmd": cmd, "expected": expected, "diffs": diffs}, f, ensure_ascii=False, indent=1)
        else:
            shutil.rmtree(d)
    print(f"{args.cases} cases (generator seed {args.seed}), {bad} mismatching, {len(crashed)} skipped (sacrebleu "
          f"raised); sacrebleu {t_sb:.1f}s, mteval {t_mt:.1f}s")
    for k, cmd, err in crashed[:3]:
        print(f"skipped case {k} (sacrebleu: {err}): {cmd}")
    for k, cmd, diffs in failures[:5]:
        print(f"case {k}: {shlex.join(cmd)}")
        for x in diffs[:8]:
            print("   ", x)
    if failures:
        print(f"failing cases kept under {root}")
    else:
        shutil.rmtree(root)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
