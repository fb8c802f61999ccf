#!/usr/bin/env python3
"""Random (df, t) cases of scipy's float32 Student's t CDF for mteval's bit-for-bit check of
kernels/src/py/student_t.rs: writes little-endian float32 triples (df, t, scipy.special.stdtr(df, t)).

Usage (scipy 1.17.1, numpy 2.4.6):
    python scripts/stdtr_cases.py N SEED OUT
    MTEVAL_STDTR_CASES=OUT cargo test --release -p mteval-kernels --lib -- --ignored stdtr_matches_scipy_on_file
Degrees of freedom from 1 to 2e7 (small, WMT-sized, large, beyond the normal limit 2^23), t over
eight decades of magnitude, both signs.
"""
import sys

import numpy as np
from scipy import special

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(seed)
q = n // 5
df = np.concatenate([
    rng.integers(1, 40, q), rng.integers(1, 1000, q), rng.integers(1, 200000, q),
    np.exp(rng.uniform(0, 17, q)).astype(np.int64), rng.integers(8388000, 20000000, n - 4 * q),
]).astype(np.float32)
t = (rng.standard_normal(n) * np.exp(rng.uniform(-12, 4, n))).astype(np.float32)
t[: n // 2] = (-np.abs(rng.standard_t(5, n // 2)) * rng.choice([0.01, 0.1, 0.5, 1, 2, 4, 10, 50], n // 2)).astype(np.float32)
p = special.stdtr(df, t)
np.stack([df, t, p], 1).astype("<f4").tofile(out)
