#!/usr/bin/env python3
"""WER family benchmark against jiwer 4.0.0, same rows, same machine, whole processes side by side.

On --rows rows (the shared WMT rows repeated), for words and for characters: a fresh Python process that
reads the line-aligned files and calls jiwer's `process_words(refs, hyps)` (`process_characters` for
characters) once over all the lines, printing the corpus value; `mteval score --hyp H --ref R -m wer`
(text mode, `unit:char` for characters); and `mteval score rows.parquet -m wer -o scored.parquet` (every
row's score written too). The corpus values must be equal to the bit.

Usage: python3 scripts/bench_wer.py --python VENV/bin/python [--rows 100000] [--mteval target/release/mteval]
The --python interpreter needs jiwer==4.0.0.
"""
import json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_args, load_wmt_rows, print_speed_table, repeat_rows, timed, write_row_files  # noqa: E402

JIWER = r"""
import sys, jiwer
hyps = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]
f = jiwer.process_characters if sys.argv[3] == 'char' else jiwer.process_words
o = f(refs, hyps)
print(repr(float(o.cer if sys.argv[3] == 'char' else o.wer)))
"""


def main():
    args = bench_args(100000)
    rows = repeat_rows(load_wmt_rows(), args.rows)
    tmp = tempfile.mkdtemp(prefix="mteval-bench-wer-")
    hyp, ref, pq = write_row_files(args.mteval, tmp, rows)
    ok = True
    for unit in ("word", "char"):
        opts = ["--options", "wer=unit:char"] if unit == "char" else []
        t_py, out = timed([args.python, "-c", JIWER, hyp, ref, unit])
        want = float(out.strip())
        t_txt, out = timed([args.mteval, "score", "--hyp", hyp, "--ref", ref, "-m", "wer", *opts, "--json"])
        got_txt = json.loads(out.splitlines()[-1])["score"]
        t_pq, out = timed([args.mteval, "score", pq, "-m", "wer", *opts, "--json", "-o", os.path.join(tmp, f"scored-{unit}.parquet")])
        got_pq = json.loads(out.splitlines()[-1])["score"]
        same = want == got_txt == got_pq
        ok &= same
        print(f"\n{unit} level, rows: {len(rows)} (shared WMT rows repeated); corpus value {want!r}: "
              f"{'equal' if same else f'DIFFERENT: text {got_txt!r}, parquet {got_pq!r}'}")
        fn = "process_characters" if unit == "char" else "process_words"
        labels = [f"jiwer 4.0.0 {fn} (python)", f"mteval score --hyp/--ref -m wer{' unit:char' if opts else ''}",
                  "mteval score rows.parquet -m wer -o ..."]
        print_speed_table(len(rows), 50, "vs jiwer", 9, labels, [t_py, t_txt, t_pq])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
