//! Property tests over the option space of every metric: options with
//! extreme numbers (huge, tiny, negative, non-finite, past `usize`) either
//! parse or are refused, and whatever parses scores every input to a finite
//! number in the metric's range, never a panic and never NaN.

use mteval_kernels::chrf::group::{Group, parse_mbr_options};
use mteval_kernels::{CharacTerConfig, ChrfConfig, FastChrfOptions, Ter};
use proptest::prelude::*;

/// Numbers a user (or a typo) may write, at and around every bound.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "2",
    "0.5",
    "1e-300",
    "5e-324",
    "-1",
    "-1e-300",
    "31",
    "32",
    "33",
    "1000",
    "1e154",
    "1.0000001e154",
    "1.3e154",
    "1.35e154",
    "1e155",
    "1e200",
    "1e308",
    "1.8e308",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "0x10",
    "1_000",
    "",
    "none",
];

/// Every numeric key of every metric, with the metric's other keys.
const NUMERIC_KEYS: &[&str] = &["beta", "nc", "nw", "char_order", "word_order", "max_words", "fuzzy"];
const OTHER: &[&str] = &["", "case:lc", "eff:no", "space:yes", "algo:seed", "compat:cer", "self:no", "norm:yes"];

fn options() -> impl Strategy<Value = String> {
    let entry =
        (prop::sample::select(NUMERIC_KEYS), prop::sample::select(NUMBERS)).prop_map(|(k, v)| format!("{k}:{v}"));
    (prop::collection::vec(entry, 1..4), prop::sample::select(OTHER)).prop_map(|(mut e, o)| {
        e.push(o.to_owned());
        e.join("|")
    })
}

fn sentence() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!["a", "ab", "b", "abc", "c.", "É", "日本", "x"]), 0..12)
        .prop_map(|w| w.join(" "))
}

fn in_range(x: f64, hi: f64) -> bool {
    x.is_finite() && (0.0..=hi).contains(&x)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn chrf_scores_whatever_parses(o in options(), h in sentence(), r1 in sentence(), r2 in sentence()) {
        for base in [ChrfConfig::default(), ChrfConfig::chrf_plus_plus(), FastChrfOptions::default().config()] {
            let Ok(c) = ChrfConfig::parse_with(base, &o) else { continue };
            prop_assert!(c.beta.abs() <= mteval_kernels::chrf::MAX_BETA, "{o}: {c:?}");
            for refs in [vec![r1.as_str()], vec![r1.as_str(), r2.as_str()], vec![h.as_str()]] {
                let seg = c.segment(&h, &refs).unwrap();
                prop_assert_eq!(seg.stats.len(), c.stats_len());
                let s = c.score(&seg.stats);
                prop_assert!(in_range(s, 100.0), "{o}: {s} for {h:?} vs {refs:?}");
            }
        }
    }

    #[test]
    fn mbr_utilities_score_whatever_parses(o in options(), hyps in prop::collection::vec(sentence(), 1..5)) {
        let Ok((c, include_self)) = parse_mbr_options(&o) else { return Ok(()) };
        let strs: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let g = Group::new(&c, &strs, None).unwrap();
        for row in g.pairwise() {
            prop_assert!(row.iter().all(|&s| in_range(s, 100.0)), "{o}: {row:?}");
        }
        for u in g.expected_utility(!include_self).into_iter().flatten() {
            prop_assert!(in_range(u, 100.0), "{o}: utility {u}");
        }
        for u in g.aggregate() {
            prop_assert!(in_range(u, 100.0), "{o}: aggregate {u}");
        }
    }

    #[test]
    fn ter_scores_whatever_parses(o in options(), h in sentence(), r in sentence()) {
        let Ok(t) = Ter::from_options(&o) else { return Ok(()) };
        match t.segment(&h, &[&r]) {
            Ok(Some(seg)) => {
                let s = t.sentence_score(&seg);
                prop_assert!(s.is_finite() && s >= 0.0, "{o}: {s}");
            }
            Ok(None) => {}
            // algo:seed refuses an empty reference, with an error.
            Err(e) => prop_assert!(r.trim().is_empty() || e.to_string().contains("limit"), "{o}: {e}"),
        }
    }

    #[test]
    fn charac_ter_scores_whatever_parses(o in options(), h in sentence(), r in sentence()) {
        let Ok(c) = CharacTerConfig::parse(&o) else { return Ok(()) };
        prop_assert!(c.fuzzy.is_none_or(|t| (0.0..=1.0).contains(&t)), "{o}: {c:?}");
        match c.sentence(&h, &r) {
            Ok(s) => prop_assert!(in_range(s, 1.0), "{o}: {s}"),
            Err(e) => prop_assert!(e.to_string().contains("limit"), "{o}: {e}"),
        }
    }
}

#[test]
fn beta_is_bounded_where_its_square_overflows() {
    // sacrebleu squares beta (Python raises OverflowError past ~1.34e154).
    // A negative beta squares as its opposite (sacrebleu and fastchrf take
    // it); only the name shows the sign, as sacrebleu's `chrF{beta}`.
    for (ok, name) in [
        ("0", "chrF0"),
        ("-0", "chrF0"),
        ("1e-300", "chrF1e-300"),
        ("2", "chrF2"),
        ("1e154", "chrF1e+154"),
        ("-1", "chrF-1"),
        ("-1.5", "chrF-1.5"),
        ("-1e154", "chrF-1e+154"),
    ] {
        let c = ChrfConfig::parse(&format!("beta:{ok}")).unwrap_or_else(|e| panic!("beta:{ok}: {e}"));
        let s = c.sentence_score("the cat sat", &["the cat sat on"]).unwrap();
        assert!(in_range(s, 100.0), "beta:{ok}: {s}");
        assert_eq!(c.name(), name, "beta:{ok}");
        let opposite = ChrfConfig { beta: -c.beta, ..c };
        assert_eq!(opposite.sentence_score("the cat sat", &["the cat sat on"]).unwrap().to_bits(), s.to_bits());
    }
    for bad in ["1.35e154", "1e155", "1e200", "-1e155", "inf", "-inf", "nan", ""] {
        let e = ChrfConfig::parse(&format!("beta:{bad}")).unwrap_err().to_string();
        assert!(e.contains(&format!("beta:{bad}: expected a number from -1e154 to 1e154")), "beta:{bad}: {e}");
        assert!(parse_mbr_options(&format!("beta:{bad}")).is_err(), "mbr beta:{bad}");
    }
    let fast = FastChrfOptions { beta: 1e200, ..FastChrfOptions::default() };
    let e = mteval_kernels::chrf::group::pairwise_chrf(&[vec!["a"]], &[vec!["a"]], &fast).unwrap_err().to_string();
    assert!(e.contains("beta must be a number from -1e154 to 1e154 (got 1e200"), "{e}");
    let negative = FastChrfOptions { beta: -2.0, ..FastChrfOptions::default() };
    let (h, r) = (vec![vec!["the cat sat", "a cat"]], vec![vec!["the cat sat on", "cats"]]);
    assert_eq!(
        mteval_kernels::chrf::group::pairwise_chrf(&h, &r, &negative).unwrap(),
        mteval_kernels::chrf::group::pairwise_chrf(&h, &r, &FastChrfOptions::default()).unwrap()
    );
}

#[test]
fn seed_ter_has_its_own_length_limit() {
    use mteval_kernels::ter::SEED_MAX_WORDS;
    let words = |n: usize| (0..n).map(|i| format!("w{}", i % 7)).collect::<Vec<_>>().join(" ");
    let seed = Ter::from_options("algo:seed").unwrap();
    assert!(seed.segment(&words(SEED_MAX_WORDS), &[&words(3)]).is_ok());
    let e = seed.segment(&words(SEED_MAX_WORDS + 1), &[&words(3)]).unwrap_err().to_string();
    assert!(e.contains(&format!("over the limit of {SEED_MAX_WORDS}")) && e.contains("algo:seed"), "{e}");
    // The default algorithm keeps its own, larger limit, and max_words raises the seed's.
    assert!(Ter::default().segment(&words(SEED_MAX_WORDS + 1), &[&words(3)]).is_ok());
    let raised = Ter::from_options(&format!("algo:seed|max_words:{}", SEED_MAX_WORDS + 1)).unwrap();
    assert!(raised.segment(&words(SEED_MAX_WORDS + 1), &[&words(3)]).is_ok());
}
