#!/usr/bin/env python3
"""A random meta-evaluation table on standard output (CSV: system, seg_id,
gold, m0..): systems of random quality, gold scores with ties (quarter
steps) and 5% missing, metrics of growing noise, every other one rounded to
one decimal (ties).

    python3 scripts/meta_random_table.py SEED SYSTEMS SEGMENTS METRICS > t.csv
"""
import random, sys
seed = int(sys.argv[1]); nsys, nseg, nmet = map(int, sys.argv[2:5])
r = random.Random(seed)
mets = [f"m{j}" for j in range(nmet)]
print(",".join(["system", "seg_id", "gold"] + mets))
qual = {s: r.uniform(-1, 1) for s in range(nsys)}
for s in range(nsys):
    for i in range(nseg):
        g = qual[s] + r.gauss(0, 1)
        g = round(g * 4) / 4 if r.random() < 0.5 else g
        gs = "" if r.random() < 0.05 else repr(g)
        vals = []
        for j in range(nmet):
            v = g + r.gauss(0, [0.3, 0.8, 1.5, 3.0][j % 4])
            vals.append(repr(round(v, 1) if j % 2 else v))
        print(",".join([f"sys{s:02d}", str(i), gs] + vals))
