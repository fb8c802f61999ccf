//! The CPU backend: every batch primitive on all cores with rayon. This is
//! the reference the GPU kernels are tested against; the metrics' own CPU
//! fast paths (prefix-sharing TER, hashed chrF) give the same integers.

use rayon::prelude::*;

use super::{Aggregate, Backend, BackendError, Grid, NgramInput, Seqs};
use crate::levenshtein::id_distance;
use crate::ter::shift::ter_pair;

/// All CPU cores (rayon's global pool).
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuBackend;

/// Distinct windows with counts, sorted, per (string, order).
type Profile<'a> = Vec<(&'a [u32], u32)>;

fn profiles(input: &NgramInput) -> Vec<Profile<'_>> {
    let orders = input.orders();
    (0..input.n_strings() * orders)
        .into_par_iter()
        .map(|t| {
            let (sym, n) = input.order_seq(t / orders, t % orders);
            let mut w: Vec<&[u32]> = if sym.len() >= n { sym.windows(n).collect() } else { Vec::new() };
            w.sort_unstable();
            let mut out: Profile<'_> = Vec::new();
            for x in w {
                match out.last_mut() {
                    Some((k, c)) if *k == x => *c += 1,
                    _ => out.push((x, 1)),
                }
            }
            out
        })
        .collect()
}

fn clipped(a: &Profile<'_>, b: &Profile<'_>) -> u32 {
    let (mut i, mut j, mut m) = (0, 0, 0u32);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                m += a[i].1.min(b[j].1);
                i += 1;
                j += 1;
            }
        }
    }
    m
}

fn count_of(p: &Profile<'_>, key: &[u32]) -> u64 {
    p.binary_search_by(|(k, _)| (*k).cmp(key)).map_or(0, |i| u64::from(p[i].1))
}

impl Backend for CpuBackend {
    fn name(&self) -> String {
        format!("cpu ({} threads)", rayon::current_num_threads())
    }

    fn is_gpu(&self) -> bool {
        false
    }

    fn edit_distances(&self, a: &Seqs, b: &Seqs) -> Result<Vec<u32>, BackendError> {
        Ok((0..a.len())
            .into_par_iter()
            .map(|i| u32::try_from(id_distance(a.get(i), b.get(i))).unwrap_or(u32::MAX))
            .collect())
    }

    fn shift_search(&self, hyps: &Seqs, refs: &Seqs) -> Result<Vec<(u32, u32)>, BackendError> {
        Ok((0..hyps.len())
            .into_par_iter()
            .map(|i| {
                let p = ter_pair(hyps.get(i), refs.get(i));
                (p.edits, p.shifts)
            })
            .collect())
    }

    fn ngram_matches(&self, input: &NgramInput, pairs: &[u32]) -> Result<Vec<u32>, BackendError> {
        let prof = profiles(input);
        let orders = input.orders();
        Ok(pairs
            .par_chunks_exact(2)
            .flat_map_iter(|p| {
                let (h, r) = (p[0] as usize, p[1] as usize);
                let prof = &prof;
                (0..orders).map(move |o| clipped(&prof[h * orders + o], &prof[r * orders + o]))
            })
            .collect())
    }

    fn ngram_match_grid(&self, input: &NgramInput, grid: &Grid) -> Result<Vec<u32>, BackendError> {
        let Grid { hyps, refs } = grid.clone();
        let prof = profiles(input);
        let orders = input.orders();
        Ok(hyps
            .into_par_iter()
            .flat_map_iter(|h| {
                let prof = &prof;
                refs.clone().flat_map(move |r| {
                    (0..orders).map(move |o| clipped(&prof[h as usize * orders + o], &prof[r as usize * orders + o]))
                })
            })
            .collect())
    }

    fn ngram_aggregate(&self, input: &NgramInput, q: &Aggregate<'_>) -> Result<Vec<u64>, BackendError> {
        let prof = profiles(input);
        let orders = input.orders();
        let Aggregate { hyps, refs, skip, mult } = q.clone();
        let h0 = hyps.start;
        Ok(hyps
            .into_par_iter()
            .flat_map_iter(|h| {
                let (prof, refs) = (&prof, refs.clone());
                let j = (h - h0) as usize;
                (0..orders).map(move |o| {
                    prof[h as usize * orders + o]
                        .iter()
                        .map(|&(key, c)| {
                            let bag: u64 = refs
                                .clone()
                                .filter(|&r| r != skip[j])
                                .map(|r| count_of(&prof[r as usize * orders + o], key))
                                .sum();
                            (mult[j] * u64::from(c)).min(bag)
                        })
                        .sum::<u64>()
                })
            })
            .collect())
    }
}
