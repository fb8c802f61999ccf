//! Bit-parallel Levenshtein (char, word and id distances, resumable columns
//! and the column join CharacTER uses) against the textbook DP.
//!
//! Input: byte 0 is the split point for the column join; the rest is lossy
//! UTF-8 split at the first '\n' into two strings of at most 300 code points.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::text;
use mteval_kernels::levenshtein::{Myers, char_distance, id_distance, join_columns, reference_distance, word_distance};
use mteval_kernels::py::text::py_split;

const MAX_CHARS: usize = 300;

fuzz_target!(|data: &[u8]| {
    let Some((&cut_byte, rest)) = data.split_first() else { return };
    let s = text(rest, 4 * MAX_CHARS);
    let (a, b) = s.split_once('\n').unwrap_or((&s, ""));
    let a: String = a.chars().take(MAX_CHARS).collect();
    let b: String = b.chars().take(MAX_CHARS).collect();
    let (ac, bc): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());

    let want = reference_distance(&ac, &bc);
    assert_eq!(char_distance(&a, &b), want, "char_distance({a:?}, {b:?})");
    assert_eq!(char_distance(&b, &a), want, "char_distance({b:?}, {a:?})");

    let (aw, bw): (Vec<&str>, Vec<&str>) = (py_split(&a).collect(), py_split(&b).collect());
    assert_eq!(word_distance(&aw, &bw), reference_distance(&aw, &bw), "word_distance({aw:?}, {bw:?})");

    let (ai, bi): (Vec<u32>, Vec<u32>) =
        (ac.iter().map(|&c| c as u32).collect(), bc.iter().map(|&c| c as u32).collect());
    assert_eq!(id_distance(&ai, &bi), want);

    // Resumable columns: pattern `a`, text `b`, joined at every split of the
    // text (or at the one byte 0 picks when the text is long).
    if ac.is_empty() {
        return;
    }
    let mut ids = std::collections::HashMap::new();
    let mut intern = |c: char| {
        let n = ids.len() as u32;
        *ids.entry(c).or_insert(n)
    };
    let pat: Vec<u32> = ac.iter().map(|&c| intern(c)).collect();
    let txt: Vec<u32> = bc.iter().map(|&c| intern(c)).collect();
    let alphabet = ids.len();
    let (m, n) = (pat.len(), txt.len());
    let mut fwd = Myers::new();
    fwd.reset_exact(&pat, alphabet);
    assert_eq!(fwd.distance(&txt), want);
    let rev_pat: Vec<u32> = pat.iter().rev().copied().collect();
    let rev_txt: Vec<u32> = txt.iter().rev().copied().collect();
    let mut bwd = Myers::new();
    bwd.reset_exact(&rev_pat, alphabet);
    let (mut fs, mut fsc, mut bs, mut bsc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    fwd.prefix_states(&txt, &mut fs, &mut fsc);
    bwd.prefix_states(&rev_txt, &mut bs, &mut bsc);
    assert_eq!(fsc.len(), n + 1);
    assert_eq!(fsc[n], want);
    assert_eq!(bsc[n], want);
    for (t, &sc) in fsc.iter().enumerate() {
        if t % 17 == 0 || t == n {
            assert_eq!(sc, reference_distance(&pat, &txt[..t]), "prefix {t}");
        }
    }
    let w = fwd.state_len();
    let cuts: Vec<usize> = if n <= 40 { (0..=n).collect() } else { vec![usize::from(cut_byte) % (n + 1), 0, n] };
    for cut in cuts {
        let tail = n - cut;
        let got = join_columns(m, &fs[cut * w..(cut + 1) * w], cut, &bs[tail * w..(tail + 1) * w], tail);
        assert_eq!(got, want, "join_columns m={m} n={n} cut={cut}");
    }
    // Advancing a stored column over the rest of the text finishes the DP.
    let cut = usize::from(cut_byte) % (n + 1);
    let mut state = fs[cut * w..(cut + 1) * w].to_vec();
    let mut score = fsc[cut];
    fwd.advance(&mut state, &mut score, &txt[cut..]);
    assert_eq!(score, want);
});
