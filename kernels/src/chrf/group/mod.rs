//! Many-to-many chrF: fastChrF's `pairwise_chrf` and `aggregate_chrf`
//! (fastchrf 0.2.1) and the MBR expected utilities built
//! on them.
//!
//! Each string's n-grams are extracted once and interned into one id space
//! per group; a pair is then scored from integer statistics only. Pairwise
//! matches come from an inverted index over the references: for every
//! hypothesis n-gram, its postings `(reference, count)` add `min(c_h, c_r)`
//! to that reference's accumulator, so a pair costs the n-grams it *shares*
//! (not `|h| + |r|` hash lookups). Memory is the postings (proportional to the
//! distinct n-grams of the inputs) plus one accumulator row per thread; the
//! `H × R` matrix only exists when the caller asks for it.
//!
//! Scores are sacrebleu's F-score ([`super::f_score`]) on the same integer
//! statistics, so `pairwise[j][k]` is bit-identical to sentence chrF of
//! `(hyp_j, [ref_k])` under the same options (fastchrf guarantees the same).
//! Aggregate chrF (Vamvas & Sennrich 2024) scores each hypothesis against the
//! summed reference multiset with hypothesis counts multiplied by the number of
//! references.

mod mbr;
mod profiles;

use std::sync::OnceLock;

use rayon::prelude::*;

use self::mbr::mean_skipping;
pub use self::mbr::{AGGREGATE, MbrChrf, PAIRWISE, mbr_signature, parse_mbr_options};
use self::profiles::{Profiles, Symbols};
use super::{ChrfConfig, Whitespace, f_score};
use crate::MetricError;
use crate::backend::{Aggregate, Backend, BackendError, Grid, MeanUtility, Work, or_cpu};
use crate::hash::FastMap;

/// fastchrf's keyword arguments, plus chrF++ word orders and lower-casing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FastChrfOptions {
    /// Character n-gram orders (fastchrf default 6).
    pub char_order: usize,
    /// Word n-gram orders (not in fastchrf; 2 = chrF++).
    pub word_order: usize,
    /// Recall weight (default 2.0).
    pub beta: f64,
    /// Remove whitespace before extracting character n-grams (default true).
    pub remove_whitespace: bool,
    /// Mean of per-order F with eps (default false).
    pub eps_smoothing: bool,
    /// Lower-case first (not in fastchrf).
    pub lowercase: bool,
}

impl Default for FastChrfOptions {
    fn default() -> Self {
        Self {
            char_order: 6,
            word_order: 0,
            beta: 2.0,
            remove_whitespace: true,
            eps_smoothing: false,
            lowercase: false,
        }
    }
}

impl FastChrfOptions {
    /// The equivalent chrF configuration (Unicode whitespace, as fastchrf).
    #[must_use]
    pub fn config(&self) -> ChrfConfig {
        ChrfConfig {
            char_order: self.char_order,
            word_order: self.word_order,
            beta: self.beta,
            lowercase: self.lowercase,
            whitespace: !self.remove_whitespace,
            eps_smoothing: self.eps_smoothing,
            ws_rule: Whitespace::Unicode,
        }
    }
}

fn fast_err(reason: &str) -> MetricError {
    MetricError::InvalidInput { metric: "fastchrf", reason: reason.to_owned() }
}

fn validate<A, B>(hyps: &[A], refs: &[B], opts: &FastChrfOptions) -> Result<(), MetricError> {
    if opts.char_order == 0 && opts.word_order == 0 {
        return Err(fast_err("char_order must be at least 1"));
    }
    if opts.beta.is_nan() || opts.beta.abs() > super::MAX_BETA {
        // fastchrf squares beta (a negative one weighs as its opposite), so an
        // infinite, NaN or overflowing one makes every score NaN.
        return Err(fast_err(&format!(
            "beta must be a number from -{max:e} to {max:e} (got {:e}; fastchrf would score NaN)",
            opts.beta,
            max = super::MAX_BETA
        )));
    }
    if hyps.is_empty() || refs.is_empty() {
        return Err(fast_err("hypotheses and references must be non-empty"));
    }
    if hyps.len() != refs.len() {
        return Err(fast_err("hypotheses and references must have the same batch size"));
    }
    Ok(())
}

/// fastchrf's `pairwise_chrf`: `out[b][j][k]` = chrF of `hyps[b][j]` against `refs[b][k]`.
///
/// # Errors
/// As fastchrf: no orders, an empty batch, or batch sizes that differ.
pub fn pairwise_chrf<S: AsRef<str> + Sync>(
    hyps: &[Vec<S>],
    refs: &[Vec<S>],
    opts: &FastChrfOptions,
) -> Result<Vec<Vec<Vec<f64>>>, MetricError> {
    validate(hyps, refs, opts)?;
    let cfg = opts.config();
    hyps.iter()
        .zip(refs)
        .map(|(h, r)| Ok(Group::new(&cfg, &strs(h), Some(&strs(r)))?.pairwise()))
        .collect::<Result<_, MetricError>>()
}

/// fastchrf's `aggregate_chrf`: `out[b][j]` = chrF of `hyps[b][j]` against the
/// aggregated references of row `b`.
///
/// # Errors
/// As [`pairwise_chrf`].
pub fn aggregate_chrf<S: AsRef<str> + Sync>(
    hyps: &[Vec<S>],
    refs: &[Vec<S>],
    opts: &FastChrfOptions,
) -> Result<Vec<Vec<f64>>, MetricError> {
    validate(hyps, refs, opts)?;
    let cfg = opts.config();
    hyps.iter().zip(refs).map(|(h, r)| Ok(Group::new(&cfg, &strs(h), Some(&strs(r)))?.aggregate())).collect()
}

fn strs<S: AsRef<str>>(v: &[S]) -> Vec<&str> {
    v.iter().map(AsRef::as_ref).collect()
}

/// Hypotheses and references of one group (one source segment in MBR).
pub struct Group {
    cfg: ChrfConfig,
    /// The n-gram profiles, built on first use: the CPU paths need them, a
    /// GPU builds its own from the symbols.
    prof: OnceLock<Profiles>,
    /// The symbols of every string (what the profiles and a GPU backend read).
    symbols: Symbols,
    n_hyps: usize,
    /// Index of the first reference in the profiles (0 when the hypotheses are the references).
    ref_start: usize,
    n_refs: usize,
}

impl Group {
    /// Profiles `hyps` and `refs` (`None`: the hypotheses are also the references).
    ///
    /// # Errors
    /// A group too large for 32-bit n-gram ids (about 4 GB of text).
    ///
    /// References equal to the hypotheses, string for string (self-MBR
    /// through fastchrf's API passes the same list twice), are profiled once,
    /// as with `None`: the statistics are the same, the work is halved.
    pub fn new(cfg: &ChrfConfig, hyps: &[&str], refs: Option<&[&str]>) -> Result<Self, MetricError> {
        let refs = refs.filter(|r| *r != hyps);
        let (symbols, ref_start, n_refs) = match refs {
            None => (Symbols::build(cfg, hyps)?, 0, hyps.len()),
            Some(r) => {
                let all: Vec<&str> = hyps.iter().chain(r).copied().collect();
                (Symbols::build(cfg, &all)?, hyps.len(), r.len())
            }
        };
        Ok(Self { cfg: *cfg, prof: OnceLock::new(), symbols, n_hyps: hyps.len(), ref_start, n_refs })
    }

    /// The n-gram profiles (built on first call).
    fn prof(&self) -> &Profiles {
        self.prof.get_or_init(|| Profiles::build(&self.symbols))
    }

    /// Number of hypotheses.
    #[must_use]
    pub fn n_hyps(&self) -> usize {
        self.n_hyps
    }

    /// Number of references.
    #[must_use]
    pub fn n_refs(&self) -> usize {
        self.n_refs
    }

    /// Calls `f(j, row)` with row `j` of the pairwise matrix (`row[k]` = chrF
    /// of hypothesis `j` against reference `k`), in parallel over hypotheses,
    /// and returns the results in hypothesis order.
    pub fn pairwise_map<T: Send>(&self, f: impl Fn(usize, &[f64]) -> T + Sync) -> Vec<T> {
        let prof = self.prof();
        let orders = prof.orders;
        let nr = self.n_refs;
        // Inverted index over the references: postings per n-gram id.
        let mut starts = vec![0usize; prof.n_ids + 1];
        for k in 0..nr {
            for o in 0..orders {
                for &id in prof.entries(self.ref_start + k, o).0 {
                    starts[id as usize + 1] += 1;
                }
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let total = starts[prof.n_ids];
        let mut post_ref = vec![0u32; total];
        let mut post_cnt = vec![0u32; total];
        let mut fill = starts.clone();
        for k in 0..nr {
            for o in 0..orders {
                let (ids, cnts) = prof.entries(self.ref_start + k, o);
                for (&id, &c) in ids.iter().zip(cnts) {
                    let slot = &mut fill[id as usize];
                    // Cannot fail: fewer strings than the bound checked in `Profiles::build`.
                    post_ref[*slot] = u32::try_from(k).unwrap_or(u32::MAX);
                    post_cnt[*slot] = c;
                    *slot += 1;
                }
            }
        }
        let ref_tot: Vec<u64> =
            (0..nr * orders).map(|i| self.symbols.total(self.ref_start + i / orders, i % orders)).collect();
        let cfg = &self.cfg;
        (0..self.n_hyps)
            .into_par_iter()
            .map_init(
                || (vec![0u64; orders * nr], vec![0f64; nr]),
                |(acc, row), j| {
                    acc.fill(0);
                    for o in 0..orders {
                        let acc_o = &mut acc[o * nr..(o + 1) * nr];
                        let (ids, cnts) = prof.entries(j, o);
                        for (&id, &c) in ids.iter().zip(cnts) {
                            let r = starts[id as usize]..starts[id as usize + 1];
                            for (&k, &cr) in post_ref[r.clone()].iter().zip(&post_cnt[r]) {
                                acc_o[k as usize] += u64::from(c.min(cr));
                            }
                        }
                    }
                    let hyp_tot: Vec<u64> = (0..orders).map(|o| self.symbols.total(j, o)).collect();
                    for (k, out) in row.iter_mut().enumerate() {
                        let rt = &ref_tot[k * orders..(k + 1) * orders];
                        *out = f_score(cfg.beta, cfg.eps_smoothing, orders, |o| {
                            if rt[o] == 0 { (0, 0, 0) } else { (hyp_tot[o], rt[o], acc[o * nr + k]) }
                        });
                    }
                    f(j, row)
                },
            )
            .collect()
    }

    /// [`Self::pairwise_map`] with the clipped matches of every pair counted
    /// on `backend` (one launch for the whole group on a GPU; the CPU path if
    /// the GPU fails). Same rows either way.
    pub fn pairwise_map_on<T: Send>(&self, backend: &dyn Backend, f: impl Fn(usize, &[f64]) -> T + Sync) -> Vec<T> {
        if !self.offloads(backend, |hyps, refs| Work::ChrfPairwise { hyps, refs }) {
            return self.pairwise_map(f);
        }
        let gpu = || -> Result<Vec<T>, BackendError> {
            let grid = Grid { hyps: Self::range(0, self.n_hyps)?, refs: Self::range(self.ref_start, self.n_refs)? };
            let m = backend.ngram_match_grid(&self.symbols.input(), &grid)?;
            let orders = self.cfg.orders();
            let nr = self.n_refs;
            let cfg = &self.cfg;
            Ok((0..self.n_hyps)
                .into_par_iter()
                .map_init(
                    || vec![0f64; nr],
                    |row, j| {
                        for (k, out) in row.iter_mut().enumerate() {
                            let base = (j * nr + k) * orders;
                            *out = f_score(cfg.beta, cfg.eps_smoothing, orders, |o| {
                                let rt = self.symbols.total(self.ref_start + k, o);
                                if rt == 0 { (0, 0, 0) } else { (self.symbols.total(j, o), rt, u64::from(m[base + o])) }
                            });
                        }
                        f(j, row)
                    },
                )
                .collect())
        };
        or_cpu("pairwise chrF", gpu, || self.pairwise_map(&f))
    }

    /// Whether `backend` takes this group's `work` (made from the numbers of
    /// hypotheses and references; always asked); an empty group never goes to
    /// a device.
    fn offloads(&self, backend: &dyn Backend, work: impl FnOnce(usize, usize) -> Work) -> bool {
        backend.offload(&work(self.n_hyps, self.n_refs)) && self.n_hyps > 0 && self.n_refs > 0
    }

    /// String index range `start .. start + len` as `u32`.
    fn range(start: usize, len: usize) -> Result<std::ops::Range<u32>, BackendError> {
        let s = u32::try_from(start).map_err(|_| BackendError::Unsupported("group too large".into()))?;
        let e = u32::try_from(start + len).map_err(|_| BackendError::Unsupported("group too large".into()))?;
        Ok(s..e)
    }

    /// [`Self::expected_utility_skipping`] on `backend`.
    ///
    /// # Panics
    /// When `skip` is shorter than the number of hypotheses.
    #[must_use]
    pub fn expected_utility_skipping_on(&self, backend: &dyn Backend, skip: &[Option<usize>]) -> Vec<Option<f64>> {
        if !self.offloads(backend, |hyps, refs| Work::ChrfMeanUtility { hyps, refs }) {
            return self.expected_utility_skipping(skip);
        }
        // Reduced on the device (only the N means come back); a backend
        // without that reduction sends the matrix.
        let reduced = || -> Result<Vec<Option<f64>>, BackendError> {
            #[allow(clippy::cast_possible_truncation, reason = "a group's indices fit in u32, as `Self::range` checks")]
            let skip_ids: Vec<u32> =
                (0..self.n_hyps).map(|j| skip[j].filter(|&s| s < self.n_refs).map_or(u32::MAX, |s| s as u32)).collect();
            let q = MeanUtility {
                grid: Grid { hyps: Self::range(0, self.n_hyps)?, refs: Self::range(self.ref_start, self.n_refs)? },
                skip: &skip_ids,
                beta: self.cfg.beta,
                eps_smoothing: self.cfg.eps_smoothing,
            };
            let means = backend.ngram_mean_f(&self.symbols.input(), &q)?;
            Ok(means.into_iter().map(|m| (!m.is_nan()).then_some(m)).collect())
        };
        match reduced() {
            Ok(v) => v,
            Err(BackendError::Unsupported(_)) => self.pairwise_map_on(backend, |j, row| mean_skipping(row, skip[j])),
            Err(e) => or_cpu("MBR chrF", || Err(e), || self.expected_utility_skipping(skip)),
        }
    }

    /// [`Self::aggregate_skipping`] with the aggregated matches counted on
    /// `backend` (the CPU path if the GPU fails). Same values either way.
    ///
    /// # Panics
    /// When `skip` is shorter than the number of hypotheses.
    #[must_use]
    pub fn aggregate_skipping_on(&self, backend: &dyn Backend, skip: &[Option<usize>]) -> Vec<Option<f64>> {
        if !self.offloads(backend, |hyps, refs| Work::ChrfAggregate { hyps, refs }) {
            return self.aggregate_skipping(skip);
        }
        let gpu = || -> Result<Vec<Option<f64>>, BackendError> {
            let orders = self.cfg.orders();
            let nr = self.n_refs as u64;
            // Per hypothesis: the reference string left out and the multiplier.
            let left_out: Vec<Option<usize>> =
                (0..self.n_hyps).map(|j| skip[j].filter(|&e| e < self.n_refs).map(|e| self.ref_start + e)).collect();
            #[allow(
                clippy::cast_possible_truncation,
                reason = "string indices of the group fit in u32, as `Self::range` checks before the launch"
            )]
            let skip_ids: Vec<u32> = left_out.iter().map(|e| e.map_or(u32::MAX, |e| e as u32)).collect();
            let mult: Vec<u64> = left_out.iter().map(|e| if e.is_some() { nr - 1 } else { nr }).collect();
            let q = Aggregate {
                hyps: Self::range(0, self.n_hyps)?,
                refs: Self::range(self.ref_start, self.n_refs)?,
                skip: &skip_ids,
                mult: &mult,
            };
            let m = backend.ngram_aggregate(&self.symbols.input(), &q)?;
            let ref_tot: Vec<u64> = (0..orders)
                .map(|o| (0..self.n_refs).map(|k| self.symbols.total(self.ref_start + k, o)).sum())
                .collect();
            let cfg = &self.cfg;
            Ok((0..self.n_hyps)
                .map(|j| {
                    if mult[j] == 0 {
                        return None;
                    }
                    Some(f_score(cfg.beta, cfg.eps_smoothing, orders, |o| {
                        let rt = ref_tot[o] - left_out[j].map_or(0, |e| self.symbols.total(e, o));
                        if rt == 0 { (0, 0, 0) } else { (mult[j] * self.symbols.total(j, o), rt, m[j * orders + o]) }
                    }))
                })
                .collect())
        };
        or_cpu("aggregate chrF", gpu, || self.aggregate_skipping(skip))
    }

    /// The full pairwise matrix, `H × R`.
    #[must_use]
    pub fn pairwise(&self) -> Vec<Vec<f64>> {
        self.pairwise_map(|_, row| row.to_vec())
    }

    /// MBR expected utility per hypothesis: the mean of its pairwise row, as
    /// `numpy.mean(pairwise, axis=1)` computes it. With `exclude_self` the
    /// diagonal is left out when the hypotheses are the references (built
    /// with `None`, or with references equal to them string for string);
    /// otherwise it changes nothing. `None` where no reference is left.
    #[must_use]
    pub fn expected_utility(&self, exclude_self: bool) -> Vec<Option<f64>> {
        let skip: Vec<Option<usize>> =
            (0..self.n_hyps).map(|j| (exclude_self && self.ref_start == 0).then_some(j)).collect();
        self.expected_utility_skipping(&skip)
    }

    /// As [`Self::expected_utility`], leaving out reference `skip[j]` for hypothesis `j`.
    ///
    /// # Panics
    /// When `skip` is shorter than the number of hypotheses.
    #[must_use]
    pub fn expected_utility_skipping(&self, skip: &[Option<usize>]) -> Vec<Option<f64>> {
        self.pairwise_map(|j, row| mean_skipping(row, skip[j]))
    }

    /// Aggregate chrF per hypothesis with reference `skip[j]` left out of the
    /// aggregated references of hypothesis `j`; `None` where no reference is left.
    ///
    /// # Panics
    /// When `skip` is shorter than the number of hypotheses.
    #[must_use]
    pub fn aggregate_skipping(&self, skip: &[Option<usize>]) -> Vec<Option<f64>> {
        if skip.iter().all(Option::is_none) {
            return if self.n_refs == 0 {
                vec![None; self.n_hyps]
            } else {
                self.aggregate().into_iter().map(Some).collect()
            };
        }
        let (bag, ref_tot) = self.reference_bag();
        (0..self.n_hyps)
            .into_par_iter()
            .map(|j| {
                let Some(e) = skip[j].filter(|&e| e < self.n_refs) else {
                    return (self.n_refs > 0).then(|| self.aggregate_one(j, &bag, &ref_tot, self.n_refs as u64, None));
                };
                if self.n_refs == 1 {
                    return None;
                }
                Some(self.aggregate_one(j, &bag, &ref_tot, self.n_refs as u64 - 1, Some(self.ref_start + e)))
            })
            .collect()
    }

    /// Summed reference counts per n-gram id and total per order.
    fn reference_bag(&self) -> (Vec<u64>, Vec<u64>) {
        let prof = self.prof();
        let orders = prof.orders;
        let mut bag = vec![0u64; prof.n_ids];
        let mut ref_tot = vec![0u64; orders];
        for k in 0..self.n_refs {
            for (o, rt) in ref_tot.iter_mut().enumerate() {
                let (ids, cnts) = prof.entries(self.ref_start + k, o);
                for (&id, &c) in ids.iter().zip(cnts) {
                    bag[id as usize] += u64::from(c);
                }
                *rt += self.symbols.total(self.ref_start + k, o);
            }
        }
        (bag, ref_tot)
    }

    /// Aggregate chrF of hypothesis `j` against `bag` (minus string `minus`'s counts).
    fn aggregate_one(&self, j: usize, bag: &[u64], ref_tot: &[u64], nr: u64, minus: Option<usize>) -> f64 {
        let prof = self.prof();
        let orders = prof.orders;
        let cfg = &self.cfg;
        let mut own: FastMap<u32, u64> = FastMap::default();
        f_score(cfg.beta, cfg.eps_smoothing, orders, |o| {
            let mut rt = ref_tot[o];
            own.clear();
            if let Some(e) = minus {
                rt -= self.symbols.total(e, o);
                let (ids, cnts) = prof.entries(e, o);
                own.extend(ids.iter().zip(cnts).map(|(&i, &c)| (i, u64::from(c))));
            }
            if rt == 0 {
                return (0, 0, 0);
            }
            let (ids, cnts) = prof.entries(j, o);
            let m = ids
                .iter()
                .zip(cnts)
                .map(|(&id, &c)| (nr * u64::from(c)).min(bag[id as usize] - own.get(&id).copied().unwrap_or(0)))
                .sum();
            (nr * self.symbols.total(j, o), rt, m)
        })
    }

    /// Aggregate chrF of every hypothesis against the summed references.
    #[must_use]
    pub fn aggregate(&self) -> Vec<f64> {
        let (bag, ref_tot) = self.reference_bag();
        let nr = self.n_refs as u64;
        (0..self.n_hyps).into_par_iter().map(|j| self.aggregate_one(j, &bag, &ref_tot, nr, None)).collect()
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ChrfConfig {
        &self.cfg
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "random counts are drawn below small bounds")]
mod tests {
    use super::profiles::intern_sharded;
    use super::*;

    const HYPS: [&str; 2] = ["The cat sat on the mat.", "The cat sat on the hat."];
    const REFS: [&str; 3] = ["The cat sat on the mat.", "The fat cat sat on the mat.", "A cat sat on a mat."];

    #[test]
    fn references_equal_to_the_hypotheses_are_a_self_group() {
        let cfg = FastChrfOptions::default().config();
        let copies: Vec<String> = REFS.iter().map(|s| (*s).to_owned()).collect();
        let same: Vec<&str> = copies.iter().map(String::as_str).collect();
        let own = Group::new(&cfg, &REFS, None).unwrap();
        let twice = Group::new(&cfg, &REFS, Some(&same)).unwrap();
        assert_eq!((twice.n_hyps(), twice.n_refs(), twice.ref_start), (3, 3, 0));
        assert_eq!(twice.pairwise(), own.pairwise());
        let mean = own.expected_utility(true);
        assert_eq!(twice.expected_utility(true), mean);
        assert_ne!(mean, own.expected_utility(false));
        // One string differs: two lists, and no diagonal to leave out.
        let other = ["The cat sat on the mat.", "The fat cat sat on the mat.", "A cat sat on a rug."];
        let two = Group::new(&cfg, &REFS, Some(&other)).unwrap();
        assert_eq!((two.n_refs(), two.ref_start), (3, 3));
        assert_eq!(two.expected_utility(true), two.expected_utility(false));
        assert_eq!(two.pairwise()[2][0], cfg.sentence_score(REFS[2], &[other[0]]).unwrap());
    }

    #[test]
    fn sharded_ids_name_each_key_once() {
        // 40 strings drawing from 500 keys, so keys repeat across strings.
        let mut next = crate::testutil::lcg(99);
        let keyed: Vec<Vec<(u128, u32)>> = (0..40)
            .map(|_| {
                let mut l = Vec::new();
                for _ in 0..3 {
                    for _ in 0..next(60) {
                        l.push((u128::from(next(500)) << 70 | 1, 1 + next(3) as u32));
                    }
                    l.push((0, u32::MAX));
                }
                l
            })
            .collect();
        let keys: Vec<u128> = keyed.iter().flatten().filter(|e| e.1 != u32::MAX).map(|e| e.0).collect();
        let distinct = keys.iter().collect::<std::collections::HashSet<_>>().len();
        for threads in [1, 3, 4, 7] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (ids, n_ids) = pool.install(|| intern_sharded(&keyed, keys.len()));
            assert_eq!(ids.len(), keys.len());
            let (mut id_of, mut key_of) = (FastMap::default(), FastMap::default());
            for (&k, &id) in keys.iter().zip(&ids) {
                assert!((id as usize) < n_ids, "{threads} threads: id {id} of {n_ids}");
                assert_eq!(*id_of.entry(k).or_insert(id), id, "{threads} threads: key {k} got two ids");
                assert_eq!(*key_of.entry(id).or_insert(k), k, "{threads} threads: id {id} names two keys");
            }
            assert_eq!(id_of.len(), distinct);
            assert!(n_ids <= distinct * threads, "{threads} threads: {n_ids} ids for {distinct} keys");
        }
    }

    #[test]
    fn spec_examples() {
        let o = FastChrfOptions::default();
        let p = pairwise_chrf(&[HYPS.to_vec()], &[REFS.to_vec()], &o).unwrap();
        assert_eq!(
            p[0],
            vec![
                vec![100.0, 74.63190448595968, 55.77074553591104],
                vec![79.65373542579425, 57.152875487777045, 50.72182797324959]
            ]
        );
        let a = aggregate_chrf(&[HYPS.to_vec()], &[REFS.to_vec()], &o).unwrap();
        assert_eq!(a[0], vec![78.56389720579162, 63.37194046719271]);
        let b3 = FastChrfOptions { beta: 3.0, ..o };
        let a = aggregate_chrf(&[vec!["a b c", ""]], &[vec!["abc", "a", ""]], &b3).unwrap();
        assert_eq!(a[0], vec![85.47008547008548, 0.0]);
    }

    #[test]
    fn mbr_options_round_trip() {
        let (c, s) = parse_mbr_options("nw:2|self:no").unwrap();
        assert_eq!((c.word_order, c.ws_rule, s), (2, Whitespace::Unicode, false));
        let sig = mbr_signature(&c, s, "pairwise").to_string();
        assert!(sig.starts_with("utility:pairwise|case:mixed|eff:yes|nc:6|nw:2|space:no|ws:unicode|self:no|version:fastchrf-0.2.1|impl:mteval-"), "{sig}");
        assert_eq!(parse_mbr_options(&sig).unwrap(), (c, s));
        assert!(parse_mbr_options("self:maybe").is_err());
        // sacrebleu's whitespace rule is not MBR's default: it must show.
        let (c, s) = parse_mbr_options("ws:python").unwrap();
        assert_eq!(c.ws_rule, Whitespace::Python);
        let sig = mbr_signature(&c, s, "pairwise").to_string();
        assert!(sig.contains("|space:no|ws:python|self:yes|"), "{sig}");
        assert_eq!(parse_mbr_options(&sig).unwrap(), (c, s));
        let e = parse_mbr_options("colour:red").unwrap_err().to_string();
        assert!(e.contains("unknown key 'colour'") && e.contains("impl, self, utility)"), "{e}");
    }

    #[test]
    fn validation() {
        let o = FastChrfOptions::default();
        let e: Vec<Vec<&str>> = vec![];
        assert!(pairwise_chrf(&e, &e, &o).is_err());
        assert!(aggregate_chrf(&[vec!["a"]], &[vec!["a"], vec!["b"]], &o).is_err());
        assert!(pairwise_chrf(&[vec!["a"]], &[vec!["a"]], &FastChrfOptions { char_order: 0, ..o }).is_err());
    }
}
