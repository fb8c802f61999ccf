"""Differential check of Whisper's English normaliser: mteval.normalizers.EnglishTextNormalizer against
whisper-normalizer 0.1.15 on fresh random cases (the shared WMT English sides with spoken numbers, currencies,
percentages, fillers, contractions, noise and British spellings injected; python/tests/whisper_english_cases.py).

    target/pyvenv/bin/python scripts/diff_whisper_english.py --cases 100000 [--seed S]

Prints how many differ (and the first few); exits 1 if any does.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python", "tests"))

from whisper_english_cases import cases  # noqa: E402
from whisper_normalizer.english import EnglishTextNormalizer as Theirs  # noqa: E402

from mteval.normalizers import EnglishTextNormalizer  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--cases", type=int, default=20000)
ap.add_argument("--seed", type=int, default=None)
ap.add_argument("--shared", default=os.environ.get("MTEVAL_SHARED_DIR", os.path.join(HERE, "..", "..", "shared")))
a = ap.parse_args()
texts = cases(a.cases, a.shared, a.seed)
t0 = time.perf_counter()
theirs = Theirs()
want = [theirs(t) for t in texts]
t1 = time.perf_counter()
got = EnglishTextNormalizer()(texts)
t2 = time.perf_counter()
bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
print(f"{len(texts)} cases, {len(bad)} differ (whisper-normalizer {t1 - t0:.2f} s, mteval {t2 - t1:.3f} s)")
for t, w, g in bad[:10]:
    print(f"  input {t!r}\n    whisper-normalizer {w!r}\n    mteval             {g!r}")
sys.exit(1 if bad else 0)
