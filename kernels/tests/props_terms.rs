//! Property tests of the terminology match kernels: the search against a
//! brute force of the reference's combinations × product loop, the {0, 1, K}
//! shape of its results, and invariances of the matching.

use mteval_kernels::py::re::{Literal, Text};
use mteval_kernels::terms::{Lemma, SpanMask, count_matches, exact_matches, lemmatized_matches, matched_terms};
use proptest::prelude::*;

/// The reference's loop, literally: for n = K..1, every n-combination of the
/// terms that have masks (in `itertools.combinations` order), every element of
/// the product of their lists; n when one mask is chosen or the AND of all
/// chosen masks is zero.
fn brute_force(masks_per_term: &[Vec<SpanMask>]) -> usize {
    fn product_has_zero(lists: &[&Vec<SpanMask>], acc: Option<SpanMask>) -> bool {
        let Some((first, rest)) = lists.split_first() else {
            return acc.is_some_and(|a| a.is_empty());
        };
        first.iter().any(|m| product_has_zero(rest, Some(acc.as_ref().map_or_else(|| m.clone(), |a| a.and(m)))))
    }
    fn combinations(
        k: usize,
        n: usize,
        from: usize,
        chosen: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if chosen.len() == n {
            return f(chosen);
        }
        for i in from..k {
            chosen.push(i);
            let done = combinations(k, n, i + 1, chosen, f);
            chosen.pop();
            if done {
                return true;
            }
        }
        false
    }
    let present: Vec<&Vec<SpanMask>> = masks_per_term.iter().filter(|m| !m.is_empty()).collect();
    let k = present.len();
    for n in (1..=k).rev() {
        let found = combinations(k, n, 0, &mut Vec::new(), &mut |combo: &[usize]| {
            let lists: Vec<&Vec<SpanMask>> = combo.iter().map(|&i| present[i]).collect();
            n == 1 || product_has_zero(&lists, None)
        });
        if found {
            return n;
        }
    }
    0
}

fn mask_from_bits(bits: u16) -> SpanMask {
    let mut m = SpanMask::new(16);
    for b in 0..16 {
        if bits >> b & 1 == 1 {
            m.insert(b);
        }
    }
    m
}

/// Arbitrary (non-interval) masks: up to 6 terms, up to 4 masks each, over
/// 10 positions, with some zero masks.
fn mask_lists() -> impl Strategy<Value = Vec<Vec<SpanMask>>> {
    prop::collection::vec(
        prop::collection::vec(prop_oneof![1 => Just(0u16), 12 => 0u16..1024].prop_map(mask_from_bits), 0..4),
        0..6,
    )
}

/// Predictions from a small alphabet with case and Unicode variants,
/// punctuation inside tokens and various spacing.
fn prediction() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(vec![
                "a", "b", "ab", "cat", "Cat", "CATS", "a.b", "x-y", "İ", "ı", "i", "ſ", "s", "\u{212a}", "k", "ß", "ẞ",
                "σ", "ς", "é", "😀", "5", "a5", "_",
            ]),
            prop::sample::select(vec![" ", " ", " ", "", "  ", "\t", "-"]),
        ),
        0..8,
    )
    .prop_map(|v| v.into_iter().flat_map(|(t, s)| [t, s]).collect())
}

fn alternative() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "a", "b", "ab", "a b", "cat", "CAT", "cats", "a.b", "y", "i", "I", "s", "k", "ss", "ß", "σ", "é", "😀",
        "5", ".",
    ])
    .prop_map(str::to_owned)
}

fn terms() -> impl Strategy<Value = Vec<Vec<String>>> {
    prop::collection::vec(prop::collection::vec(alternative(), 0..3), 0..6)
}

/// The exact masks of the terms, from the public matcher.
fn exact_masks(pred: &str, terms: &[Vec<String>]) -> Vec<Vec<SpanMask>> {
    let text = Text::new(pred.chars().collect());
    terms
        .iter()
        .map(|t| {
            t.iter()
                .flat_map(|a| {
                    let lit = Literal::new(a);
                    lit.find_iter(&text).map(|(s, e)| SpanMask::range(text.len(), s, e)).collect::<Vec<_>>()
                })
                .collect()
        })
        .collect()
}

/// Whitespace tokens with their code-point spans.
fn tokens(pred: &str) -> Vec<(String, usize, usize)> {
    let chars: Vec<char> = pred.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if mteval_kernels::py::text::is_py_space(chars[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < chars.len() && !mteval_kernels::py::text::is_py_space(chars[i]) {
            i += 1;
        }
        out.push((chars[s..i].iter().collect(), s, i));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn search_equals_brute_force(masks in mask_lists()) {
        prop_assert_eq!(matched_terms(&masks), brute_force(&masks));
    }

    #[test]
    fn search_is_zero_one_or_k(masks in mask_lists()) {
        let k = masks.iter().filter(|m| !m.is_empty()).count();
        let r = matched_terms(&masks);
        prop_assert!(r == 0 && k == 0 || r == 1 && k >= 1 || r == k, "r {} k {}", r, k);
    }

    #[test]
    fn exact_equals_brute_force(pred in prediction(), terms in terms()) {
        let masks = exact_masks(&pred, &terms);
        let r = exact_matches(&pred, &terms) as usize;
        prop_assert_eq!(r, brute_force(&masks));
        let k = masks.iter().filter(|m| !m.is_empty()).count();
        prop_assert!(r <= terms.len());
        prop_assert!(r == k || r == usize::from(k > 0));
    }

    #[test]
    fn finditer_spans_are_ordered_and_sized(pred in prediction(), alt in alternative()) {
        let text = Text::new(pred.chars().collect());
        let lit = Literal::new(&alt);
        let spans: Vec<(usize, usize)> = lit.find_iter(&text).collect();
        for &(s, e) in &spans {
            prop_assert_eq!(e - s, alt.chars().count());
            prop_assert!(e <= text.len());
        }
        for w in spans.windows(2) {
            prop_assert!(w[0].1 <= w[1].0 && w[0].0 < w[1].0);
        }
    }

    #[test]
    fn absent_term_changes_nothing(pred in prediction(), mut terms in terms()) {
        let before = exact_matches(&pred, &terms);
        let lemmas: Vec<(String, usize, usize)> = tokens(&pred);
        let lem: Vec<Lemma<'_>> = lemmas.iter().map(|(t, s, e)| Lemma::new(Some(t), *s, *e)).collect();
        let lemm_before = lemmatized_matches(&pred, &lem, &terms);
        terms.insert(terms.len() / 2, vec!["zq§".to_owned(), "§§".to_owned()]);
        prop_assert_eq!(exact_matches(&pred, &terms), before);
        prop_assert_eq!(lemmatized_matches(&pred, &lem, &terms), lemm_before);
    }

    #[test]
    fn ascii_case_does_not_matter(words in prop::collection::vec(prop::sample::select(vec!["a", "Ab", "cat", "CATS", "a.b", "x5"]), 1..8), terms in terms()) {
        let pred = words.join(" ");
        let swapped: String = pred.chars().map(|c| if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() }).collect();
        prop_assert_eq!(exact_matches(&pred, &terms), exact_matches(&swapped, &terms));
    }

    /// Alphanumeric single-space tokens, identity lemmas, single-token
    /// alternatives: every lemma-space match mirrors a surface match and
    /// locks the same word, so the lemmatized count equals the exact one.
    #[test]
    fn identity_lemmas_give_exact(
        words in prop::collection::vec(prop::sample::select(vec!["a", "b", "Ab", "cat", "CATS", "x5", "İ"]), 1..8),
        terms in prop::collection::vec(prop::collection::vec(prop::sample::select(vec!["a", "B", "ab", "cat", "cats", "x5", "i", "zz"]), 0..3), 0..5),
        null_first in any::<bool>(),
    ) {
        let pred = words.join(" ");
        let toks = tokens(&pred);
        let lem: Vec<Lemma<'_>> = toks.iter().enumerate()
            .map(|(i, (t, s, e))| Lemma::new(if i == 0 && null_first { None } else { Some(t) }, *s, *e))
            .collect();
        let exact = exact_matches(&pred, &terms);
        prop_assert_eq!(lemmatized_matches(&pred, &lem, &terms).unwrap(), exact);
        let c = count_matches(&pred, &lem, &terms).unwrap();
        prop_assert_eq!((c.exact, c.lemmatized, c.lemmatized_below_exact), (exact, exact, false));
        prop_assert_eq!(c.wrong() as usize, terms.len() - exact as usize);
    }

    /// count_matches never reports fewer lemmatized than exact matches, and
    /// errors only where lemmatized_matches does.
    #[test]
    fn count_matches_is_consistent(pred in prediction(), terms in terms()) {
        let toks = tokens(&pred);
        let lem: Vec<Lemma<'_>> = toks.iter().map(|(t, s, e)| Lemma::new(Some(t), *s, *e)).collect();
        let dropped = mteval_kernels::py::text::py_strip(&pred).is_empty();
        match count_matches(&pred, &lem, &terms) {
            Ok(c) => {
                prop_assert!(c.lemmatized >= c.exact);
                prop_assert_eq!(c.dropped, dropped);
                prop_assert_eq!(c.total as usize, terms.len());
                if !dropped && !terms.is_empty() {
                    let raw = lemmatized_matches(&pred, &lem, &terms).unwrap();
                    prop_assert_eq!(c.lemmatized, raw.max(c.exact));
                    prop_assert_eq!(c.exact, exact_matches(&pred, &terms));
                } else {
                    prop_assert_eq!((c.exact, c.lemmatized), (0, 0));
                }
            }
            Err(e) => {
                prop_assert!(!dropped && !terms.is_empty());
                prop_assert_eq!(Err(e), lemmatized_matches(&pred, &lem, &terms));
            }
        }
    }
}
