#!/usr/bin/env python3
"""BLEU benchmarks: mteval vs sacrebleu 2.6.0 on the same rows, whole processes (process start included).

Takes the shared WMT rows (all 5 pairs x 3 systems) repeated to --rows rows, writes them as line-aligned
hyp.txt/ref.txt and as rows.parquet (columns hyp, ref, system), then times, best of --repeats runs:
  corpus BLEU
  * sacrebleu: a fresh Python process, BLEU().corpus_score(hyps, [refs]).score (printed with repr);
  * `mteval score --hyp H --ref R -m bleu -b -w 17` (text mode);
  * `mteval score rows.parquet -m bleu -b -w 17` (table mode);
  * `mteval sql -c "SELECT corpus_bleu(hyp, ref) AS s FROM 'rows.parquet'" --format ndjson`;
  sentence BLEU (one run each)
  * sacrebleu: BLEU(effective_order=True).sentence_score(h, [r]).score per line;
  * `mteval score --hyp H --ref R -m bleu --sentence -w 17`.
Checks: the SQL corpus score equals sacrebleu's bit for bit; the printed ones (17 decimals, not round-trip
exact) and every sentence score within 1e-9. Prints two speed tables; exits 1 on any disagreement.

Usage: python3 scripts/bench_bleu.py [--rows 75000] [--repeats 3] [--python /tmp/oracle-venv/bin/python]
       python3 scripts/bench_bleu.py --dry-run     # sacrebleu side only (no mteval binary needed)
Needs a release build (`cargo build --release`) and the oracle venv (sacrebleu 2.6.0).
"""
import json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (best, load_wmt_rows, max_sentence_diff, print_speed_table, repeat_rows,  # noqa: E402
                     sacrebleu_bench_args, sentence_scorer, timed, write_row_files)

CORPUS = r"""
import sys
from sacrebleu.metrics import BLEU
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
print(repr(BLEU().corpus_score(hyps, [refs]).score))
"""
CORPUS_LABELS = ["sacrebleu 2.6.0 BLEU corpus (python)", "mteval score --hyp/--ref -m bleu -b",
                 "mteval score rows.parquet -m bleu -b", "mteval sql corpus_bleu(hyp, ref)"]
SENTENCE_LABELS = ["sacrebleu 2.6.0 BLEU sentence (python)", "mteval score --hyp/--ref -m bleu --sentence"]


def main():
    args = sacrebleu_bench_args(rows=75000, repeats=3)
    rows = repeat_rows(load_wmt_rows(), args.rows)
    assert not any("\n" in r["hyp"] or "\n" in r["ref"] for r in rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-bleu-")
    if args.dry_run:
        hyp, ref = os.path.join(tmp, "hyp.txt"), os.path.join(tmp, "ref.txt")
        for path, col in ((hyp, "hyp"), (ref, "ref")):
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(r[col] + "\n" for r in rows))
    else:
        hyp, ref, pq = write_row_files(args.mteval, tmp, rows)

    t_sb, out = best([args.python, "-c", CORPUS, hyp, ref], args.repeats)
    sb = float(out)
    sb_sent = os.path.join(tmp, "sacrebleu.txt")
    t_sb_sent, _ = timed([args.python, "-c", sentence_scorer("from sacrebleu.metrics import BLEU\nm = BLEU(effective_order=True)",
                                                             "m.sentence_score(h, [r]).score"), hyp, ref, sb_sent])
    if args.dry_run:
        print(f"rows: {len(rows)}  sacrebleu corpus BLEU {sb!r} in {t_sb:.2f}s (best of {args.repeats}); "
              f"sentence BLEU in {t_sb_sent:.2f}s  (files in {tmp})")
        return

    times, got = [t_sb], []
    for cmd in ([args.mteval, "score", "--hyp", hyp, "--ref", ref, "-m", "bleu", "-b", "-w", "17"],
                [args.mteval, "score", pq, "-m", "bleu", "-b", "-w", "17"]):
        t, out = best(cmd, args.repeats)
        times.append(t)
        got.append(float(out.strip()))
    t, out = best([args.mteval, "sql", "-c", f"SELECT corpus_bleu(hyp, ref) AS s FROM '{pq}'", "--format", "ndjson"],
                  args.repeats)
    times.append(t)
    sql = json.loads(out.splitlines()[0])["s"]
    t_sent, out = timed([args.mteval, "score", "--hyp", hyp, "--ref", ref, "-m", "bleu", "--sentence", "-w", "17"])
    diff = max_sentence_diff(sb_sent, out, len(rows))

    ok = sql == sb and all(abs(g - sb) < 1e-9 for g in got) and diff < 1e-9
    print(f"corpus BLEU, rows: {len(rows)} (shared WMT rows repeated; best of {args.repeats}): sacrebleu {sb!r}, "
          f"mteval sql {sql!r} ({'identical' if sql == sb else 'DIFFERENT'}), printed {got[0]!r} / {got[1]!r}")
    print_speed_table(len(rows), 44, "vs sacrebleu", 13, CORPUS_LABELS, times)
    print()
    print(f"sentence BLEU (effective order), rows: {len(rows)} (max |mteval - sacrebleu| = {diff:.3g})")
    print_speed_table(len(rows), 44, "vs sacrebleu", 13, SENTENCE_LABELS, [t_sb_sent, t_sent])
    if not ok:
        print("MISMATCH: mteval's BLEU differs from sacrebleu's")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
