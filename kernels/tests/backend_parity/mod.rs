//! CPU-vs-GPU parity checks shared by `gpu_emulated.rs` (the CUDA C kernels
//! run on the CPU) and `gpu_cuda.rs` (a real GPU): every integer statistic
//! and every score a GPU backend gives must equal the CPU backend's.
#![allow(dead_code, reason = "gpu_emulated.rs and gpu_cuda.rs each use a different part of this module")]
#![allow(
    clippy::cast_possible_truncation,
    reason = "random values are drawn below small bounds and test sizes are small"
)]

use mteval_kernels::backend::{Backend, CpuBackend, NgramInput, Seqs};
use mteval_kernels::chrf::group::Group;
use mteval_kernels::levenshtein::{char_distances_on, word_distances_on};
use mteval_kernels::{ChrfConfig, Ter};

use crate::common::{WmtRow, wmt_rows};

/// A small deterministic generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Random symbol sequences: lengths `0..max_len` over `alphabet` symbols (offset by `base`).
fn random_seqs(rng: &mut Rng, n: usize, max_len: u64, alphabet: u64, base: u32) -> Seqs {
    let mut s = Seqs::new();
    for _ in 0..n {
        let len = rng.below(max_len + 1);
        let v: Vec<u32> = (0..len).map(|_| base + rng.below(alphabet) as u32).collect();
        s.push(&v);
    }
    s
}

/// Random sentences over a small vocabulary (so that n-grams and shifts repeat).
pub fn random_sentence(rng: &mut Rng, max_words: u64) -> String {
    const WORDS: [&str; 12] = ["the", "cat", "sat", "on", "a", "mat", ",", "Haus", "über", "猫", "dog.", "\"quoted\""];
    let n = rng.below(max_words + 1);
    (0..n).map(|_| WORDS[rng.below(WORDS.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
}

/// Some WMT rows (every `step`-th, at most `max`), with both references.
pub fn wmt_sample(step: usize, max: usize) -> Vec<WmtRow> {
    let (_, all) = wmt_rows();
    all.into_iter().step_by(step).take(max).collect()
}

/// `(hyp, [ref, ref2])` of [`wmt_sample`]`(step, max)`, owned (to add random rows to).
fn wmt_hyps_and_refs(step: usize, max: usize) -> Vec<(String, Vec<String>)> {
    wmt_sample(step, max)
        .into_iter()
        .map(|r| (r.hyp, [Some(r.r#ref), r.ref2].into_iter().flatten().collect()))
        .collect()
}

/// `(hyp, refs)` rows borrowed as the kernels take them.
fn borrowed(owned: &[(String, Vec<String>)]) -> Vec<(&str, Vec<&str>)> {
    owned.iter().map(|(h, r)| (h.as_str(), r.iter().map(String::as_str).collect())).collect()
}

/// Levenshtein on random sequences: single-block, multi-block (> 64, > 128
/// symbols), empty sides, large code points.
/// `pairs` per random shape (fewer for the emulated warp kernel, whose
/// lanes take turns on one host thread at every shuffle).
pub fn check_levenshtein(gpu: &dyn Backend, pairs: usize) {
    let mut rng = Rng::new(1);
    // 4,500 symbols: 71 blocks, three groups of the one-warp-per-pair kernel.
    let few = pairs.div_ceil(8);
    for (n, max_len, alphabet, base) in [
        (pairs, 10, 3, 0),
        (pairs, 70, 4, 0),
        (pairs, 200, 6, 0x10F000),
        (pairs, 140, 40, 0x4E00),
        (pairs, 1100, 5, 0),
        (few, 4500, 4, 0),
        (pairs, 0, 1, 0),
    ] {
        let a = random_seqs(&mut rng, n, max_len, alphabet, base);
        let b = random_seqs(&mut rng, n, max_len, alphabet, base);
        let want = CpuBackend.edit_distances(&a, &b).unwrap();
        assert_eq!(gpu.edit_distances(&a, &b).unwrap(), want, "levenshtein, max_len {max_len}");
    }
    let rows = wmt_sample(7, 5 * pairs);
    let wmt: Vec<(&str, &str)> = rows.iter().map(|r| (r.hyp.as_str(), r.r#ref.as_str())).collect();
    assert_eq!(char_distances_on(gpu, &wmt), char_distances_on(&CpuBackend, &wmt), "edit_distance on WMT rows");
    // Long strings of 1- to 4-byte characters, as UTF-8 through the
    // device's decoding: WMT rows joined, with characters of every width.
    let long: Vec<(String, String)> = (0..few.max(16))
        .map(|i| {
            let side = |k: usize, extra: &str| {
                let mut s = String::new();
                let mut j = k;
                while s.len() < 600 + 40 * (k % 50) {
                    s.push_str(&rows[j % rows.len()].hyp);
                    s.push_str(extra);
                    j += 3;
                }
                s
            };
            (side(i, " é猫𝄞 "), side(i + 1, "ß€😀"))
        })
        .collect();
    let long_pairs: Vec<(&str, &str)> = long.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        char_distances_on(gpu, &long_pairs),
        char_distances_on(&CpuBackend, &long_pairs),
        "edit_distance on long multi-byte strings"
    );
    let words: Vec<(Vec<&str>, Vec<&str>)> =
        wmt.iter().map(|(h, r)| (h.split_whitespace().collect(), r.split_whitespace().collect())).collect();
    assert_eq!(word_distances_on(gpu, &words), word_distances_on(&CpuBackend, &words), "word_edit_distance");
}

/// TER: the whole shift search through the primitive
/// ([`check_ter_search`]), then whole segments on WMT rows and random rows.
pub fn check_ter(gpu: &dyn Backend, wmt_rows: usize) {
    check_ter_search(gpu, 2, 300);
    let mut rng = Rng::new(2);
    let mut owned = wmt_hyps_and_refs(3, wmt_rows);
    for _ in 0..300 {
        let h = random_sentence(&mut rng, 30);
        let n_refs = 1 + rng.below(2) as usize;
        owned.push((h, (0..n_refs).map(|_| random_sentence(&mut rng, 30)).collect()));
    }
    owned.push((String::new(), vec![String::new()]));
    owned.push(("a b c".into(), vec![String::new()]));
    owned.push((String::new(), vec!["a b".into()]));
    let rows = borrowed(&owned);
    // One pipeline depth per option set: 1 (every row in one search), then
    // 2 and 3 parts searched at once.
    for (depth, opts) in [(1, ""), (2, "case:mixed|norm:yes"), (3, "punct:no|asian:yes")] {
        mteval_kernels::backend::set_ter_pipeline(depth);
        let ter = Ter::from_options(opts).unwrap();
        let want = ter.segments_on(&CpuBackend, &rows);
        let got = ter.segments_on(gpu, &rows);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "TER '{opts}' row {i}: {:?}", rows[i]);
        }
    }
}

/// TER's whole shift search through the primitive on `n` random pairs of
/// small vocabularies drawn from `seed` (many shifts and ties; pairs beyond
/// 60 words, where the band leaves cells out), a random permutation of 60
/// distinct words (the candidate budget spent), empty sides, and references
/// 20 to 133 times longer than their hypotheses (bands the device's ring
/// holds and bands it leaves to the CPU).
pub fn check_ter_search(gpu: &dyn Backend, seed: u64, n: usize) {
    let mut rng = Rng::new(seed);
    let (mut hyps, mut refs) = (Seqs::new(), Seqs::new());
    let long = [(2u64, 156u64), (3, 150), (3, 237), (2, 100), (4, 400), (5, 250), (1, 60), (0, 7), (6, 0)];
    for p in 0..(n + long.len()) {
        let (n_h, n_r) = match long.get(p.wrapping_sub(n)) {
            Some(&(h, r)) => (h, r),
            None => (rng.below(80), rng.below(80)),
        };
        let vocab = 2 + rng.below(6);
        let h: Vec<u32> = (0..n_h).map(|_| rng.below(vocab) as u32).collect();
        let r: Vec<u32> = (0..n_r).map(|_| rng.below(vocab) as u32).collect();
        hyps.push(&h);
        refs.push(&r);
    }
    let mut perm: Vec<u32> = (0..60).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    hyps.push(&perm);
    refs.push(&(0..60).collect::<Vec<u32>>());
    let want = CpuBackend.shift_search(&hyps, &refs).unwrap();
    let got = gpu.shift_search(&hyps, &refs).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "ter_search, seed {seed}, pair {i}: {:?} against {:?}", hyps.get(i), refs.get(i));
    }
    assert_eq!(got.len(), want.len());
}

/// chrF / chrF++ sentence statistics on WMT and random rows (best reference
/// included), and the n-gram primitive on random symbols.
pub fn check_chrf(gpu: &dyn Backend, wmt_rows: usize) {
    let mut rng = Rng::new(3);
    let input = NgramInput {
        chars: random_seqs(&mut rng, 40, 50, 5, 0x1F600),
        words: random_seqs(&mut rng, 40, 12, 4, 0),
        char_order: 6,
        word_order: 2,
    };
    let pairs: Vec<u32> = (0..80).map(|_| rng.below(40) as u32).collect();
    assert_eq!(gpu.ngram_matches(&input, &pairs).unwrap(), CpuBackend.ngram_matches(&input, &pairs).unwrap());
    // Profiles of up to 2,048 windows are built one thread per window, longer
    // ones one thread per profile: strings on both sides of that line
    // (2,048 windows of order 1 and 2,047 of order 2 in 2,048 symbols) in one batch.
    let mut chars = random_seqs(&mut rng, 6, 40, 3, 0x61);
    let mut words = random_seqs(&mut rng, 6, 12, 4, 0);
    for len in [2047u64, 2048, 2049, 2053, 3000] {
        chars.push(&(0..len).map(|_| 0x61 + rng.below(3) as u32).collect::<Vec<u32>>());
        words.push(&(0..len).map(|_| rng.below(2) as u32).collect::<Vec<u32>>());
    }
    let long = NgramInput { chars, words, char_order: 6, word_order: 2 };
    let pairs: Vec<u32> = (0..40).map(|_| rng.below(11) as u32).collect();
    assert_eq!(
        gpu.ngram_matches(&long, &pairs).unwrap(),
        CpuBackend.ngram_matches(&long, &pairs).unwrap(),
        "long profiles"
    );
    let mut owned = wmt_hyps_and_refs(5, wmt_rows);
    for _ in 0..200 {
        let h = random_sentence(&mut rng, 20);
        owned.push((h, (0..rng.below(3)).map(|_| random_sentence(&mut rng, 20)).collect()));
    }
    let rows = borrowed(&owned);
    for opts in ["", "nw:2", "nw:2|eff:no", "case:lc|space:yes", "ws:unicode|nw:2", "nc:4|nw:1|beta:1"] {
        let cfg = ChrfConfig::parse(opts).unwrap();
        let want = cfg.segments_on(&CpuBackend, &rows);
        let got = cfg.segments_on(gpu, &rows);
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "chrF '{opts}' row {i}");
        }
    }
}

/// MBR: pairwise chrF rows (bit-identical floats) and aggregate chrF with
/// and without left-out references, on the shared MBR groups.
pub fn check_mbr(gpu: &dyn Backend, max_groups: usize) {
    let groups = crate::common::read_jsonl("data/wmt/mbr_groups.jsonl");
    for (gi, g) in groups.iter().take(max_groups).enumerate() {
        let hyps: Vec<&str> = g["hyps"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        for opts in ["", "nw:2|eff:no"] {
            let cfg = ChrfConfig::parse(opts).unwrap();
            let group = Group::new(&cfg, &hyps, None).unwrap();
            let skip: Vec<Option<usize>> = (0..hyps.len()).map(Some).collect();
            let bits = |v: Vec<Option<f64>>| v.into_iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
            assert_eq!(
                bits(group.expected_utility_skipping_on(gpu, &skip)),
                bits(group.expected_utility_skipping(&skip)),
                "pairwise group {gi} '{opts}'"
            );
            let none = vec![None; hyps.len()];
            for s in [&skip, &none] {
                assert_eq!(
                    bits(group.aggregate_skipping_on(gpu, s)),
                    bits(group.aggregate_skipping(s)),
                    "aggregate group {gi} '{opts}'"
                );
            }
            let refs: Vec<&str> = hyps.iter().rev().take(3).copied().collect();
            let with_refs = Group::new(&cfg, &hyps, Some(&refs)).unwrap();
            let rows = |b: &dyn Backend| {
                with_refs.pairwise_map_on(b, |_, r| r.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
            };
            assert_eq!(rows(gpu), rows(&CpuBackend), "pairwise with references, group {gi}");
        }
    }
    // The expected utility reduced on the device: rows above 128 (numpy's
    // pairwise sum splits them), references of their own, every kind of
    // skip (none, self, out of range), beta and eps smoothing, and a row
    // left empty.
    let rows = wmt_sample(13, 300);
    let texts: Vec<&str> = rows.iter().map(|r| r.hyp.as_str()).collect();
    let others: Vec<&str> = rows.iter().take(150).map(|r| r.r#ref.as_str()).collect();
    let bits = |v: Vec<Option<f64>>| v.into_iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
    for opts in ["", "beta:3|eff:no", "nw:2"] {
        let cfg = ChrfConfig::parse(opts).unwrap();
        for refs in [None, Some(&others[..])] {
            let group = Group::new(&cfg, &texts, refs).unwrap();
            let skips: [Vec<Option<usize>>; 3] = [
                (0..texts.len()).map(Some).collect(),
                vec![None; texts.len()],
                (0..texts.len()).map(|j| (j % 3 == 0).then_some(j * 7 % 400)).collect(),
            ];
            for skip in &skips {
                assert_eq!(
                    bits(group.expected_utility_skipping_on(gpu, skip)),
                    bits(group.expected_utility_skipping(skip)),
                    "expected utility, {} hypotheses, refs {}, '{opts}'",
                    texts.len(),
                    refs.map_or(0, <[&str]>::len)
                );
            }
        }
    }
    let one = Group::new(&ChrfConfig::default(), &texts[..1], None).unwrap();
    assert_eq!(one.expected_utility_skipping_on(gpu, &[Some(0)]), vec![None], "no reference left");
}

/// MBR's expected utility of one group of `n` WMT sentences on the device
/// against the CPU, bit for bit (rows deep enough for several of numpy's
/// pairwise splits), then no batch may have fallen back to the CPU (which
/// would hide a device fault behind equal numbers).
pub fn check_mbr_large(gpu: &dyn Backend, n: usize) {
    let rows = wmt_sample(1, n);
    let texts: Vec<&str> = rows.iter().map(|r| r.hyp.as_str()).collect();
    let group = Group::new(&ChrfConfig::default(), &texts, None).unwrap();
    let skip: Vec<Option<usize>> = (0..texts.len()).map(Some).collect();
    let before = mteval_kernels::backend::fallback_count();
    let bits = |v: Vec<Option<f64>>| v.into_iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
    assert_eq!(
        bits(group.expected_utility_skipping_on(gpu, &skip)),
        bits(group.expected_utility_skipping(&skip)),
        "expected utility of {n} hypotheses"
    );
    assert_eq!(mteval_kernels::backend::fallback_count(), before, "the device's expected utility fell back to the CPU");
}
