#!/usr/bin/env python3
"""Differential test of mteval's chrF/chrF++ (sacrebleu 2.6.0) and MBR chrF
(fastchrf 0.2.1) through ../shared/oracle.

Sentence chrF: the random perturbed (hyp, refs) cases of diff_ter.py, scored by
sacrebleu and by `mteval sql` (chrf_stats) for every option set below; the
statistics must be equal and the scores equal (the count of bit-identical
scores is printed; a mismatch is a difference above 1e-9 or unequal stats).

fastchrf: random groups of 1-12 hypotheses and 1-12 pseudo-references built
from the same sentences (duplicates included), scored by fastchrf's
pairwise_chrf/aggregate_chrf and by the `mbr_chrf`/`mbr_chrf_aggregate`
window functions (mean of the pairwise row as numpy computes it).

Usage: python3 scripts/diff_chrf.py [--n 3000] [--groups 400] [--seed 1]
Needs the oracle venv (see ../shared/oracle/README.md); exits 1 on any mismatch.
"""
import json, os, random, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import diff_variant, ndjson, oracle_cmd, run, tool_args, write_jsonl  # noqa: E402
from diff_ter import make_cases  # noqa: E402

CHRF_VARIANTS = {
    "chrf": ([], ""),
    "chrf_eps": (["--eps-smoothing"], "eff:no"),
    "chrfpp": (["--word-order", "2"], "nw:2"),
    "chrfpp_eps": (["--word-order", "2", "--eps-smoothing"], "nw:2|eff:no"),
    "lowercase": (["--lowercase", "--word-order", "2"], "case:lc|nw:2"),
    "whitespace": (["--whitespace"], "space:yes"),
    "beta1": (["--beta", "1"], "beta:1"),
    "nc4_nw1": (["--char-order", "4", "--word-order", "1"], "nc:4|nw:1"),
    "nc8_nw3": (["--char-order", "8", "--word-order", "3", "--beta", "3"], "nc:8|nw:3|beta:3"),
}
FAST_VARIANTS = {
    "default": ([], ""),
    "eps_smoothing": (["--eps-smoothing"], "eff:no"),
    "keep_whitespace": (["--keep-whitespace"], "space:yes"),
    "beta3_nc4": (["--beta", "3", "--char-order", "4"], "beta:3|nc:4"),
}


def numpy_mean(python, rows):
    code = "import json,sys,numpy as np\nfor l in sys.stdin: print(json.dumps([float(x) for x in np.mean(np.array(json.loads(l)), axis=1)]))"
    out = subprocess.run([python, "-c", code], input="\n".join(json.dumps(r) for r in rows) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines()]


def main():
    args = tool_args(n=3000, groups=400, seed=1, exotic=(0.0, "fraction of cases with odd characters (diff_ter.EXOTIC)"))
    tmp = tempfile.mkdtemp(prefix="mteval-diff-chrf-")
    cases = make_cases(args.n, args.seed, args.exotic)
    inp = os.path.join(tmp, "cases.jsonl")
    write_jsonl(inp, cases)
    total = bad = exact = 0

    def agree(e, g):
        return "error" not in e and g is not None and e["stats"] == g["stats"] and abs(e["score"] - g["score"]) <= 1e-9

    for name, (flags, opts) in CHRF_VARIANTS.items():
        q = f"SELECT id, chrf_stats(hyp, refs, '{opts}') AS s FROM '{inp}' ORDER BY id"
        bad, expected, got = diff_variant(args.python, args.mteval, name, 12, cases, inp, ["chrf", *flags], q, agree, bad)
        for c in cases:
            e, g = expected[c["id"]], got.get(c["id"])
            total += 1
            exact += agree(e, g) and e["score"] == g["score"]
    print(f"sentence chrF: {total} cases, {bad} mismatches, {exact} bit-identical scores (seed {args.seed})")

    # fastchrf groups, through the MBR window functions.
    rng = random.Random(args.seed + 1000)
    pool = [c["hyp"] for c in cases] + [r for c in cases for r in c["refs"]]
    groups = []
    for g in range(args.groups):
        base = rng.sample(pool, rng.randint(1, 6))
        hyps = [rng.choice(base) for _ in range(rng.randint(1, 12))]
        refs = [rng.choice(base + pool[:50]) for _ in range(rng.randint(1, 12))]
        groups.append({"id": g, "hyps": hyps, "refs": refs})
    ginp = os.path.join(tmp, "groups.jsonl")
    flat = os.path.join(tmp, "flat.jsonl")
    with open(ginp, "w", encoding="utf-8") as f, open(flat, "w", encoding="utf-8") as fl:
        for g in groups:
            f.write(json.dumps(g, ensure_ascii=False) + "\n")
            for i in range(max(len(g["hyps"]), len(g["refs"]))):
                h = g["hyps"][i] if i < len(g["hyps"]) else None
                r = g["refs"][i] if i < len(g["refs"]) else None
                fl.write(json.dumps({"g": g["id"], "i": i, "hyp": h, "pref": r}, ensure_ascii=False) + "\n")
    gtotal = gbad = gexact = 0
    for name, (flags, opts) in FAST_VARIANTS.items():
        pw = [r["scores"] for r in ndjson(run(oracle_cmd(args.python, "fastchrf-pairwise", *flags), ginp))]
        ag = [r["scores"] for r in ndjson(run(oracle_cmd(args.python, "fastchrf-aggregate", *flags), ginp))]
        means = numpy_mean(args.python, pw)
        q = (f"SELECT g, i, mbr_chrf(hyp, pref, '{opts}') OVER w AS m, mbr_chrf_aggregate(hyp, pref, '{opts}') OVER w AS a "
             f"FROM '{flat}' WHERE hyp IS NOT NULL OR pref IS NOT NULL WINDOW w AS (PARTITION BY g) ORDER BY g, i")
        for r in ndjson(run([args.mteval, "sql", "-c", q, "--format", "ndjson"])):
            g, i = r["g"], r["i"]
            if i >= len(groups[g]["hyps"]):
                continue
            em, ea = means[g][i], ag[g][i]
            gtotal += 1
            ok = r.get("m") is not None and abs(r["m"] - em) <= 1e-9 and abs(r["a"] - ea) <= 1e-9
            gexact += ok and r["m"] == em and r["a"] == ea
            if not ok:
                gbad += 1
                if gbad <= 10:
                    print("MISMATCH fastchrf", name, json.dumps(groups[g], ensure_ascii=False), i, "expected", em, ea, "got", r)
        print(f"fastchrf {name:16s} {len(groups)} groups")
    print(f"fastchrf: {gtotal} hypotheses, {gbad} mismatches, {gexact} bit-identical (mean pairwise and aggregate)")
    sys.exit(1 if bad or gbad else 0)


if __name__ == "__main__":
    main()
