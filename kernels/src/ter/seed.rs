//! The seed project's simpler greedy TER, kept as an option
//! (`variant:seed`): full Wagner–Fischer distance with no band, every block of
//! up to 10 words that is not fully aligned and occurs anywhere in the
//! reference, every destination, a shift accepted only when it lowers the
//! distance by at least 2, smallest distance wins with the first found on ties.
//! Its score is a fraction (edits / reference length), not ×100, and an empty
//! reference is an error.

use crate::levenshtein::Myers;

const MAX_SHIFT_LEN: usize = 10;

/// Full Levenshtein distance and the "aligned" mask of the hypothesis
/// (positions the backtrace matches; priority diagonal, delete, insert).
fn align(h: &[u32], r: &[u32], mask: &mut Vec<bool>) -> u32 {
    let (n, m) = (h.len(), r.len());
    let w = m + 1;
    let mut d = vec![0u32; (n + 1) * w];
    for (j, v) in d.iter_mut().enumerate().take(m + 1) {
        #[allow(clippy::cast_possible_truncation, reason = "a sentence has far fewer than 2^32 words")]
        {
            *v = j as u32;
        }
    }
    for i in 1..=n {
        #[allow(clippy::cast_possible_truncation, reason = "a sentence has far fewer than 2^32 words")]
        {
            d[i * w] = i as u32;
        }
        for j in 1..=m {
            let sub = d[(i - 1) * w + j - 1] + u32::from(h[i - 1] != r[j - 1]);
            let del = d[(i - 1) * w + j] + 1;
            let ins = d[i * w + j - 1] + 1;
            d[i * w + j] = sub.min(del).min(ins);
        }
    }
    mask.clear();
    mask.resize(n, false);
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let v = d[i * w + j];
        if i > 0 && j > 0 && d[(i - 1) * w + j - 1] + u32::from(h[i - 1] != r[j - 1]) == v {
            if h[i - 1] == r[j - 1] {
                mask[i - 1] = true;
            }
            i -= 1;
            j -= 1;
        } else if i > 0 && d[(i - 1) * w + j] + 1 == v {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    d[n * w + m]
}

/// The plain DP distance the seed used, which the bit-parallel engine replaces (tests compare them).
#[cfg(test)]
fn distance(h: &[u32], r: &[u32], row: &mut Vec<u32>) -> u32 {
    let m = r.len();
    row.clear();
    #[allow(clippy::cast_possible_truncation, reason = "a sentence has far fewer than 2^32 words")]
    row.extend(0..=m as u32);
    for (i, &hw) in h.iter().enumerate() {
        let mut diag = row[0];
        #[allow(clippy::cast_possible_truncation, reason = "a sentence has far fewer than 2^32 words")]
        {
            row[0] = i as u32 + 1;
        }
        for j in 1..=m {
            let up = row[j];
            let v = (diag + u32::from(hw != r[j - 1])).min(up + 1).min(row[j - 1] + 1);
            diag = up;
            row[j] = v;
        }
    }
    row[m]
}

fn occurs_in(hay: &[u32], needle: &[u32]) -> bool {
    !needle.is_empty() && needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// `(edits_after_shifts, num_shifts)` of the seed algorithm; `reference` must be non-empty.
#[must_use]
pub fn seed_ter_pair(hyp: &[u32], reference: &[u32]) -> (u32, u32) {
    // Words as dense symbols: the reference's words 0..k, every other word k
    // (only equality with a reference word matters to the distances, the
    // alignment and the block search, so they need no symbols of their own).
    // The reference is then the fixed pattern of one bit-parallel distance
    // engine that scores every candidate shift.
    let mut ids: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let reference: Vec<u32> = reference
        .iter()
        .map(|&w| {
            let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
            *ids.entry(w).or_insert(next)
        })
        .collect();
    let other = u32::try_from(ids.len()).unwrap_or(u32::MAX);
    let mut cur: Vec<u32> = hyp.iter().map(|w| ids.get(w).copied().unwrap_or(other)).collect();
    let mut engine = Myers::new();
    engine.reset_exact(&reference, ids.len() + 1);
    let reference = &reference[..];
    let mut mask = Vec::new();
    let mut shifted = Vec::new();
    let mut best_words = Vec::new();
    let mut current = align(&cur, reference, &mut mask);
    let mut shifts = 0u32;
    let h = cur.len();
    while current != 0 && h > 0 {
        let mut best: Option<u32> = None;
        for len in 1..=MAX_SHIFT_LEN.min(h) {
            for from in 0..=h - len {
                if mask[from..from + len].iter().all(|&a| a) || !occurs_in(reference, &cur[from..from + len]) {
                    continue;
                }
                for to in 0..=h - len {
                    if to == from {
                        continue;
                    }
                    // "to" indexes the list with the block removed.
                    shifted.clear();
                    shifted.extend_from_slice(&cur[..from]);
                    shifted.extend_from_slice(&cur[from + len..]);
                    let block = &cur[from..from + len];
                    shifted.splice(to..to, block.iter().copied());
                    let dist = u32::try_from(engine.distance(&shifted)).unwrap_or(u32::MAX);
                    if dist + 1 < current && best.is_none_or(|b| dist < b) {
                        best = Some(dist);
                        best_words.clone_from(&shifted);
                    }
                }
            }
        }
        match best {
            Some(d) => {
                std::mem::swap(&mut cur, &mut best_words);
                current = d;
                shifts += 1;
                align(&cur, reference, &mut mask);
            }
            None => break,
        }
    }
    (current, shifts)
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "random words and lengths are drawn below small bounds")]
mod tests {
    use super::*;

    fn ids(s: &str) -> Vec<u32> {
        s.split_whitespace().map(|w| u32::from(w.as_bytes()[0])).collect()
    }

    #[test]
    fn spec_examples_differ_from_sacrebleu() {
        // Two pairs where the greedy searches differ: seed 4 edits, sacrebleu 5;
        // and seed 6, sacrebleu 5.
        let (e, s) = seed_ter_pair(&ids("f b f b c c a"), &ids("d c b b a"));
        assert_eq!(e + s, 4);
        let (e, s) = seed_ter_pair(&ids("f a d a f e b"), &ids("b c e a c f a"));
        assert_eq!(e + s, 6);
    }

    #[test]
    fn bit_parallel_distance_equals_the_plain_dp() {
        let mut random = crate::testutil::xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u64| u32::try_from(random() % n).unwrap();
        let mut row = Vec::new();
        for _ in 0..2_000 {
            let (n, m, vocab) = (next(150) as usize, 1 + next(150) as usize, 1 + u64::from(next(12)));
            let r: Vec<u32> = (0..m).map(|_| next(vocab)).collect();
            let h: Vec<u32> = (0..n).map(|_| next(vocab + 3)).collect();
            let mut e = Myers::new();
            e.reset_exact(&r, vocab as usize + 3);
            assert_eq!(e.distance(&h), distance(&h, &r, &mut row) as usize, "{h:?} / {r:?}");
        }
    }

    #[test]
    fn crate_examples() {
        let (e, s) = seed_ter_pair(&ids("b a c"), &ids("a b c"));
        assert_eq!((e, s), (0, 1));
        let (e, s) = seed_ter_pair(&ids("E F A B C D"), &ids("A B C D E F"));
        assert_eq!((e, s), (0, 1));
    }
}
