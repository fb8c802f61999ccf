#!/usr/bin/env python3
"""Paired significance tests: `mteval compare` vs sacrebleu 2.6.0's command line, whole processes.

Data (deterministic): --segments segments taken round-robin over the shared WMT pairs (segment 0 of every
pair, then segment 1, ...; cycled if more are asked for than exist), each with its `ref` as the reference,
and --systems systems of real hypotheses: system k (0-based) takes, for segment i, the hypothesis of the
pair's real system (i + k) % 3; systems k >= 3 also drop the last word (the last character of a line
without spaces) of every 7th line, (i + k) % 7 == 0. Written as ref.txt and sys1.txt .. sysN.txt.

Timed (best of --sacrebleu-repeats / --repeats runs, SACREBLEU_SEED=12345 for both):
  * `sacrebleu ref.txt -i sys1.txt .. -m bleu chrf ter --paired-bs -f text --no-color`
    (its -f json crashes on chrF/TER's float32 values under paired tests);
  * `mteval compare ref.txt -i sys1.txt .. -m bleu chrf ter --paired-bs --format json`;
  * with --ar, the same with --paired-ar (10,000 trials).
Checks: every score, p_value, mean and ci in mteval's JSON equals (as floats, no tolerance) what sacrebleu's
PairedTest gives in-process on the same files (see make_significance_golden.py), and the system names match.
Prints a table (what, seconds, ratio vs sacrebleu); exits 1 on any difference.

Usage: python3 scripts/bench_compare.py [--segments 2000] [--systems 5] [--repeats 3] [--sacrebleu-repeats 1]
           [--ar] [--python /tmp/oracle-venv/bin/python]
       python3 scripts/bench_compare.py --dry-run     # sacrebleu side only (no mteval binary needed)
Needs a release build (`cargo build --release`) and the oracle venv (sacrebleu 2.6.0).
"""
import json, os, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import WMT_PAIRS, best, load_pair, repeat_rows, sacrebleu_bench_args, timed  # noqa: E402

SEED = "12345"
# Runs under the oracle interpreter: argv = test, ref file, system files; prints {score name: [results]}.
EXPECTED = r"""
import json, sys
sys.path.insert(0, %r)
from make_significance_golden import paired
read = lambda p: [l.rstrip() for l in open(p, encoding='utf-8', newline='\n')]
test, ref, systems = sys.argv[1], sys.argv[2], sys.argv[3:]
named = [(('Baseline: ' if i == 0 else '') + s, read(s)) for i, s in enumerate(systems)]
n = 1000 if test == 'bs' else 10000
out = paired(named, [read(ref)], [('bleu', {}), ('chrf', {}), ('ter', {})], test, n, -1, %s)
print(json.dumps({m['name']: m['results'] for m in out}))
""" % (HERE, SEED)


def make_data(tmp, segments, systems):
    """Writes ref.txt and sys1.txt .. sysN.txt into tmp; returns (ref path, [system paths])."""
    pairs = [load_pair(p) for p in WMT_PAIRS]
    segs = []  # (reference, [hypothesis of each real system])
    for i in range(max(len(p[2]) for p in pairs)):
        segs += [(ref[i], [hyps[s][i] for s in names]) for names, hyps, ref, _ in pairs if i < len(ref)]
    segs = repeat_rows(segs, segments)
    clean = lambda s: s.replace("\t", " ").replace("\r", " ").replace("\n", " ").rstrip()  # noqa: E731
    ref_path = os.path.join(tmp, "ref.txt")
    with open(ref_path, "w", encoding="utf-8") as f:
        f.write("".join(clean(r) + "\n" for r, _ in segs))
    sys_paths = []
    for k in range(systems):
        lines = []
        for i, (_, hyps) in enumerate(segs):
            h = clean(hyps[(i + k) % len(hyps)])
            if k >= 3 and (i + k) % 7 == 0:
                w = h.split()
                h = " ".join(w[:-1]) if len(w) > 1 else h[:-1]
            lines.append(h)
        sys_paths.append(os.path.join(tmp, f"sys{k + 1}.txt"))
        with open(sys_paths[-1], "w", encoding="utf-8") as f:
            f.write("".join(x + "\n" for x in lines))
    return ref_path, sys_paths


def differences(expected, entries, sys_paths):
    """Differences (strings) between sacrebleu's {name: [results]} and mteval's JSON list."""
    diffs = []
    for i, e in enumerate(entries):
        want = ("Baseline: " if i == 0 else "") + sys_paths[i]
        if e.get("system") != want:
            diffs.append(f"system {i} named {e.get('system')!r}, expected {want!r}")
    if len(entries) != len(sys_paths):
        diffs.append(f"{len(entries)} systems in mteval's output, expected {len(sys_paths)}")
    for name, results in expected.items():
        for i, (er, e) in enumerate(zip(results, entries)):
            gr = e.get(name) or {}
            for k in ("score", "p_value", "mean", "ci"):
                a, b = er[k], gr.get(k)
                if (a is None) != (b is None) or (a is not None and float(a) != float(b)):
                    diffs.append(f"{name} system {i} {k}: sacrebleu {a!r}, mteval {b!r}")
    return diffs


def main():
    args = sacrebleu_bench_args(segments=2000, systems=5, repeats=(3, "runs of mteval (the best is kept)"),
                                sacrebleu_repeats=(1, "runs of sacrebleu (the best is kept)"),
                                ar=(False, "also time --paired-ar (10,000 trials; slow in sacrebleu)"))
    assert args.systems >= 2, "paired tests need a baseline and at least one system"
    tmp = tempfile.mkdtemp(prefix="mteval-bench-compare-")
    ref, sys_paths = make_data(tmp, args.segments, args.systems)
    env = dict(os.environ, SACREBLEU_SEED=SEED)
    sacrebleu = os.path.join(os.path.dirname(args.python), "sacrebleu")
    metrics = ["-m", "bleu", "chrf", "ter"]
    print(f"{args.segments} segments x {args.systems} systems (shared WMT rows; files in {tmp})")
    print(f"{'what':40s} {'seconds':>8s} {'vs sacrebleu':>13s}")
    ok = True
    for test in ["bs", "ar"] if args.ar else ["bs"]:
        flag = f"--paired-{test}"
        t_sb, out = best([sacrebleu, ref, "-i", *sys_paths, *metrics, flag, "-f", "text", "--no-color"],
                         args.sacrebleu_repeats, env=env)
        print(f"{'sacrebleu 2.6.0 ' + flag:40s} {t_sb:8.2f} {1:12.1f}x")
        _, out_expected = timed([args.python, "-c", EXPECTED, test, ref, *sys_paths])
        expected = json.loads(out_expected)
        if args.dry_run:
            for name, results in expected.items():
                print(f"    {name:6s} " + "  ".join(f"{r['score']:.4f} p={r['p_value']}" for r in results))
            continue
        t_mt, out = best([args.mteval, "compare", ref, "-i", *sys_paths, *metrics, flag, "--format", "json"],
                         args.repeats, env=env)
        diffs = differences(expected, json.loads(out), sys_paths)
        print(f"{'mteval compare ' + flag:40s} {t_mt:8.2f} {t_sb / t_mt:12.1f}x  "
              f"{'identical' if not diffs else f'{len(diffs)} DIFFERENCES'}")
        for d in diffs[:10]:
            print("   ", d)
        ok &= not diffs
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
