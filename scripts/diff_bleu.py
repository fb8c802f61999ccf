#!/usr/bin/env python3
"""Random differential test of mteval's sentence and corpus BLEU against sacrebleu 2.6.0 (in-process).

Cases: the random perturbed (hyp, 1-3 refs) cases of diff_ter.make_cases (shared WMT sentences, word
drops, swaps, duplicates, case changes, odd whitespace, EXOTIC characters), a fraction of them spliced
with more odd text (punctuation and symbols of many scripts, CJK, combining marks, emoji, numbers with
separators, dashes, HTML entities). Each case gets one of --option-sets random BLEU option sets
(tok 13a/none/char/zh/intl, smooth exp/none/floor/add-k with random values, lowercase, max_ngram_order
1-6, effective_order), and a corpus id within its option set (corpora of 1-60 cases).

mteval: per option set one JSONL file and two queries, the options as a SQL literal:
    SELECT id, bleu(hyp, refs, 'OPTS') AS s FROM 'F' ORDER BY id
    SELECT c, corpus_bleu(hyp, refs, 'OPTS') AS s FROM 'F' GROUP BY c ORDER BY c
sacrebleu: BLEU(**kw).sentence_score(hyp, refs).score and BLEU(**kw).corpus_score(hyps, streams).score,
the reference streams padded with None where a segment has fewer references. Scores must be equal
(no tolerance).

Usage (an interpreter with sacrebleu 2.6.0, e.g. the oracle venv):
    python scripts/diff_bleu.py [--n 6000] [--option-sets 60] [--seed 1] [--exotic 0.3]
    python scripts/diff_bleu.py --dry-run     # sacrebleu side only; prints sample cases and queries
Exits 1 on any mismatch.
"""
import json, logging, os, random, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ROOT, options, write_jsonl  # noqa: E402
from diff_ter import make_cases  # noqa: E402
from make_significance_golden import mteval_options  # noqa: E402

from sacrebleu.metrics import BLEU  # noqa: E402

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # sentence BLEU without eff warns on every call

# Punctuation and symbols of many scripts, CJK, combining marks, emoji, numbers, dashes, entities.
BLEU_ODD = (["،", "؛", "؟", "۔", "।", "॥", "։", "።", "፣", "฿", "ฯ", "๏", "།", "༄", "၊", "။", "᠂", "᠃", "׃", "־",
             "‐", "‑", "‒", "–", "—", "―", "−", "⁓", "〜", "～", "・", "･", "‧", "¶", "†", "‡", "‰", "‱", "′", "″",
             "‹", "›", "«", "»", "‚", "‘", "’", "‛", "“", "”", "„", "⸮", "⁇", "⁈", "⁉", "¡", "¿", "§", "©", "®", "™",
             "€", "£", "¥", "₹", "₽", "₩", "¢", "$", "%", "‰", "°", "℃", "№", "½", "¾", "²", "³", "µ", "·", "•",
             "（", "）", "［", "］", "｛", "｝", "〈", "〉", "《", "》", "「", "」", "『", "』", "【", "】", "〔", "〕",
             "、", "。", "，", "．", "！", "？", "：", "；", "＂", "＇", "￥", "＄", "％", "＆", "＠", "＃",
             "中国", "日本", "한국어", "ｶﾀｶﾅ", "𠀀", "漢字かな", "e\u0301", "a\u0308", "\u0301", "\u0336", "\u20dd",
             "😀", "👍🏽", "🇩🇪", "👨‍👩‍👧", "1,000.5", "10.000,25", "3.14", "-5", "+7", "1e10", "12:30",
             "2022-01-01", "24/7", "50%", "$5", "5$", "٣٫١٤", "१२३", "Ⅻ", "①", "&amp;", "&lt;", "&gt;", "&quot;",
             "&apos;", "&#39;", "-", "--", "...", "'", '"', "(", ")", "[", "]", "{", "}", ".", ",", "!", "?", ";",
             ":", "/", "\\", "@", "#", "^", "*", "_", "=", "+", "|", "~", "`", "<", ">"])


def decorate(rng, s):
    """s with 1-6 BLEU_ODD tokens spliced in (as words, or glued to their neighbours)."""
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(s))
        tok = rng.choice(BLEU_ODD)
        s = s[:at] + (tok if rng.random() < 0.4 else f" {tok} ") + s[at:]
    return s


def random_options(rng):
    o = {}
    if rng.random() < 0.85:
        o["tokenize"] = rng.choice(["13a", "none", "char", "zh", "intl"])
    if rng.random() < 0.85:
        o["smooth_method"] = rng.choice(["exp", "none", "floor", "add-k"])
        if o["smooth_method"] in ("floor", "add-k") and rng.random() < 0.7:
            o["smooth_value"] = rng.choice([0.0, 0.01, 0.1, 0.5, 1.0, 2.0, round(rng.uniform(0, 3), rng.randint(1, 4))])
    if rng.random() < 0.3:
        o["lowercase"] = True
    if rng.random() < 0.4:
        o["max_ngram_order"] = rng.randint(1, 6)
    if rng.random() < 0.6:
        o["effective_order"] = rng.random() < 0.7
    return o


def query(mteval, sql):
    """Rows of `mteval sql -c SQL --format json` (one JSON array, or NDJSON)."""
    out = subprocess.run([mteval, "sql", "-c", sql, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-1500:])
    text = out.stdout.strip()
    try:
        rows = json.loads(text) if text else []
    except json.JSONDecodeError:
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return rows if isinstance(rows, list) else [rows]


def value(s):
    return s.get("score") if isinstance(s, dict) else s


def same(a, b):
    return b is not None and not isinstance(b, (str, bool)) and float(a) == float(b)


def main():
    args = options(n=6000, option_sets=60, seed=1, exotic=(0.3, "fraction of cases with odd characters"),
                   mteval=os.path.join(ROOT, "target", "release", "mteval"),
                   dry_run=(False, "run only sacrebleu; print sample cases and queries")).parse_args()
    rng = random.Random(args.seed + 7)
    cases = make_cases(args.n, args.seed, args.exotic)
    for c in cases:
        if rng.random() < args.exotic:
            c["hyp"] = decorate(rng, c["hyp"])
            c["refs"] = [decorate(rng, r) if rng.random() < 0.7 else r for r in c["refs"]]
    sets = [random_options(rng) for _ in range(args.option_sets)]
    groups = [[] for _ in sets]
    for c in cases:
        groups[rng.randrange(len(sets))].append(c)
    tmp = tempfile.mkdtemp(prefix="mteval-diff-bleu-")
    bad = total = errors = 0
    t_sb = t_mt = 0.0

    def mismatch(what, detail):
        nonlocal bad
        bad += 1
        if bad <= 10:
            print("MISMATCH", what, detail)

    for k, (kw, group) in enumerate(zip(sets, groups)):
        c_id, left = 0, rng.randint(1, 60)
        for c in group:
            c["c"] = c_id
            left -= 1
            if left == 0:
                c_id, left = c_id + 1, rng.randint(1, 60)
        opts = mteval_options("bleu", kw)
        t0 = time.time()
        sent = {}
        # mteval's `bleu` is sacrebleu's recommended sentence BLEU: effective
        # order on unless the options say eff:no (corpus_bleu keeps BLEU()'s eff:no).
        skw = {**kw, "effective_order": kw.get("effective_order", True)}
        for c in group:
            try:
                sent[c["id"]] = BLEU(**skw).sentence_score(c["hyp"], c["refs"]).score
            except Exception as e:  # noqa: BLE001 - a sacrebleu crash is reported, not compared
                errors += 1
                print("sacrebleu error", opts, json.dumps(c, ensure_ascii=False), f"{type(e).__name__}: {e}")
        corp = {}
        for cid in sorted({c["c"] for c in group}):
            seg = [c for c in group if c["c"] == cid]
            nref = max(len(c["refs"]) for c in seg)
            streams = [[c["refs"][j] if j < len(c["refs"]) else None for c in seg] for j in range(nref)]
            corp[cid] = BLEU(**kw).corpus_score([c["hyp"] for c in seg], streams).score
        t_sb += time.time() - t0
        path = os.path.join(tmp, f"cases_{k}.jsonl")
        write_jsonl(path, ({"id": c["id"], "c": c["c"], "hyp": c["hyp"], "refs": c["refs"]} for c in group))
        q_sent = f"SELECT id, bleu(hyp, refs, '{opts}') AS s FROM '{path}' ORDER BY id"
        q_corp = f"SELECT c, corpus_bleu(hyp, refs, '{opts}') AS s FROM '{path}' GROUP BY c ORDER BY c"
        total += len(sent) + len(corp)
        if args.dry_run:
            if k < 3:
                print(f"options {kw} -> '{opts}'\n  {q_sent}\n  {q_corp}")
                for c in group[:2]:
                    print("  ", json.dumps(c, ensure_ascii=False), "->", sent.get(c["id"]))
                print("   corpus", list(corp.items())[:3])
            continue
        t0 = time.time()
        try:
            got_s = {r["id"]: value(r["s"]) for r in query(args.mteval, q_sent)}
            got_c = {r["c"]: value(r["s"]) for r in query(args.mteval, q_corp)}
        except (RuntimeError, KeyError, TypeError) as e:
            mismatch(f"'{opts}'", f"mteval failed: {type(e).__name__}: {e}")
            bad += len(sent) + len(corp) - 1
            continue
        finally:
            t_mt += time.time() - t0
        for c in group:
            if c["id"] in sent and not same(sent[c["id"]], got_s.get(c["id"])):
                mismatch(f"sentence '{opts}'", f"{json.dumps(c, ensure_ascii=False)} expected {sent[c['id']]!r} got {got_s.get(c['id'])!r}")
        for cid, e in corp.items():
            if not same(e, got_c.get(cid)):
                mismatch(f"corpus '{opts}'", f"corpus {cid} of {path}: expected {e!r} got {got_c.get(cid)!r}")
    if args.dry_run:
        shutil.rmtree(tmp)
    print(f"{total} scores ({args.n} sentences, {args.option_sets} option sets), {bad} mismatches, "
          f"{errors} sacrebleu errors (seed {args.seed}); sacrebleu {t_sb:.1f}s, mteval {t_mt:.1f}s; files in {tmp}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
