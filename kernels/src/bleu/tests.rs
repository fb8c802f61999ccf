//! Unit tests of BLEU. Every expected value was printed by sacrebleu 2.6.0
//! (the oracle venv: Python 3.11.7, `regex` 2026.11.15); the call that
//! produced each table is in the comment above it. Options map to
//! sacrebleu's arguments as `case:lc` → `lowercase=True`, `eff:yes` →
//! `effective_order=True`, `tok:T` → `tokenize='T'`, `smooth:M[V]` →
//! `smooth_method='M', smooth_value=V`, `ngram:N` → `max_ngram_order=N`.
//!
//! Test code only: `mod.rs` declares this module as `#[cfg(test)] mod tests;`,
//! so its `unwrap`s (a failed one is a failed test) never reach the library.

use super::*;
use crate::IMPL_VERSION;

/// Corpus statistics of `segments` (each a hypothesis and its references).
fn corpus(cfg: &BleuConfig, segments: &[(&str, Vec<&str>)]) -> BleuStats {
    let mut st = BleuStats::default();
    for (h, refs) in segments {
        st.add(&cfg.segment(h, refs).unwrap());
    }
    st
}

/// The hypotheses and references of [`CASES`]-based corpora: the first
/// reference of each case, and the second where it has one.
fn cases_corpus(two_streams: bool) -> Vec<(&'static str, Vec<&'static str>)> {
    STATS
        .iter()
        .filter(|(n, ..)| *n == 4)
        .map(|&(_, h, refs, _)| (h, if two_streams { refs.iter().take(2).copied().collect() } else { vec![refs[0]] }))
        .collect()
}

/// sacrebleu's signature with mteval's additions: `ngram:N` before `version`
/// when N is not 4, and `impl` at the end.
fn with_mteval_keys(sacrebleu_sig: &str, cfg: &BleuConfig) -> String {
    let (head, version) = sacrebleu_sig.rsplit_once("|version:").unwrap();
    let ngram = if cfg.max_ngram_order == 4 { String::new() } else { format!("|ngram:{}", cfg.max_ngram_order) };
    format!("{head}{ngram}|version:{version}|impl:mteval-{IMPL_VERSION}")
}

#[test]
fn sentence_scores_are_sacrebleus_bit_for_bit() {
    for (opts, wants) in SENTENCE {
        let cfg = BleuConfig::parse(opts).unwrap();
        for (&(h, refs), want) in SENTENCE_CASES.iter().zip(wants) {
            let got = cfg.sentence_score(h, refs).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{opts}: {h:?} {refs:?}: {got} != {want}");
        }
    }
}

#[test]
fn segment_statistics_are_sacrebleus() {
    for &(n, h, refs, want) in STATS {
        let cfg = BleuConfig { max_ngram_order: n, ..BleuConfig::default() };
        assert_eq!(cfg.segment(h, refs).unwrap(), want, "ngram:{n}: {h:?} {refs:?}");
    }
}

#[test]
fn corpus_scores_and_signatures_are_sacrebleus() {
    let segments = cases_corpus(true);
    let nrefs = segments.iter().fold(None, |acc, (_, r)| NRefs::observe(acc, r.len())).unwrap();
    assert_eq!(nrefs, NRefs::Var);
    let rows: Vec<Vec<&str>> =
        CORPUS.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 12);
    for row in rows {
        let [opts, want, sig] = row[..] else { panic!("{row:?}: three fields") };
        let want: f64 = want.parse().unwrap();
        let cfg = BleuConfig::parse(opts).unwrap();
        let got = corpus(&cfg, &segments).score(&cfg).unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "{opts}: {got} != {want}");
        let ours = cfg.signature(nrefs).to_string();
        assert_eq!(ours, with_mteval_keys(sig, &cfg), "{opts}");
        assert_eq!(BleuConfig::parse(&ours).unwrap(), cfg, "{opts}: the signature pastes back");
    }
}

#[test]
fn corpus_details_are_sacrebleus() {
    let segments = cases_corpus(false);
    for &(opts, score, precisions, bp, sys_len, ref_len) in CORPUS_DETAILS {
        let cfg = BleuConfig::parse(opts).unwrap();
        let d = corpus(&cfg, &segments).score_details(&cfg).unwrap();
        assert_eq!(d.score.to_bits(), score.to_bits(), "{opts}");
        assert_eq!(d.precisions, precisions, "{opts}");
        assert_eq!((d.bp.to_bits(), d.sys_len, d.ref_len), (bp.to_bits(), sys_len, ref_len), "{opts}");
    }
}

#[test]
fn corpus_score_is_the_score_of_summed_statistics_in_any_order() {
    let cfg = BleuConfig::default();
    let segments = cases_corpus(true);
    let whole = corpus(&cfg, &segments);
    let (mut a, b) = (corpus(&cfg, &segments[..5]), corpus(&cfg, &segments[5..]));
    a.merge(&b);
    assert_eq!(a, whole);
    let mut rev = b.clone();
    rev.merge(&corpus(&cfg, &segments[..5]));
    assert_eq!(rev.score(&cfg), whole.score(&cfg));
    assert_eq!(BleuStats::default().score(&cfg), None);
    assert_eq!(cfg.segment("a b", &[]), None);
    assert_eq!(cfg.sentence_score("a b", &[]), None);
}

#[test]
fn tokenizers_are_sacrebleus() {
    for (s, wants) in TOKENIZED {
        for (tok, want) in TOKENIZER_ORDER.iter().zip(wants) {
            let t = BleuTokenizer::from_name(tok).unwrap();
            assert_eq!(t.tokenize(s), *want, "tok:{tok}: {s:?}");
        }
    }
}

#[test]
fn preprocessing_lower_cases_then_strips_then_tokenizes() {
    for &(tok, lc, s, want) in PREPROCESSED {
        let cfg =
            BleuConfig { tokenizer: BleuTokenizer::from_name(tok).unwrap(), lowercase: lc, ..BleuConfig::default() };
        assert_eq!(cfg.preprocess(s), want, "tok:{tok} lc:{lc}: {s:?}");
    }
}

#[test]
fn sentence_scores_of_each_tokenizer_are_sacrebleus() {
    for &(tok, h, r, want) in TOKENIZER_SCORES {
        let cfg = BleuConfig::parse(&format!("tok:{tok}|eff:yes")).unwrap();
        let got = cfg.sentence_score(h, &[r]).unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "tok:{tok}: {h:?} / {r:?}: {got} != {want}");
    }
}

#[test]
fn closest_reference_length_prefers_the_shorter_on_ties() {
    assert_eq!(closest_ref_len(4, &[3, 5]), 3);
    assert_eq!(closest_ref_len(4, &[5, 3]), 3);
    assert_eq!(closest_ref_len(4, &[6, 5, 2]), 5);
    assert_eq!(closest_ref_len(0, &[0, 0]), 0);
    assert_eq!(closest_ref_len(3, &[]), 0);
}

#[test]
fn compute_bleu_edge_cases() {
    // BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method=...,
    // effective_order=...).score, and .bp.
    let exp = compute_bleu(&[3, 1, 0, 0], &[4, 3, 2, 1], 4, 6, Smoothing::Exp, false);
    assert_eq!((exp.score, exp.bp), (21.444097124017667, 0.6065306597126334));
    let none = compute_bleu(&[3, 1, 0, 0], &[4, 3, 2, 1], 4, 6, Smoothing::None, false);
    assert_eq!(none.score, 0.0);
    let eff = compute_bleu(&[2, 1, 0, 0], &[2, 1, 0, 0], 2, 3, Smoothing::Exp, true);
    assert_eq!(eff.score, 60.653065971263366);
    let no_eff = compute_bleu(&[2, 1, 0, 0], &[2, 1, 0, 0], 2, 3, Smoothing::Exp, false);
    assert_eq!(no_eff.score, 0.0);
    let zero_sys = compute_bleu(&[0, 0, 0, 0], &[0, 0, 0, 0], 0, 5, Smoothing::Exp, true);
    assert_eq!((zero_sys.score, zero_sys.bp), (0.0, 0.0));
    let add_k = compute_bleu(&[1, 0, 0, 0], &[1, 0, 0, 0], 1, 2, Smoothing::AddK(1.0), false);
    assert_eq!((add_k.score, add_k.precisions.as_slice()), (36.78794411714425, &[100.0, 100.0, 100.0, 100.0][..]));
    let floor = compute_bleu(&[5, 0, 0, 0], &[6, 5, 4, 3], 6, 6, Smoothing::Floor(0.1), false);
    assert_eq!(floor.score, 6.104735835807844);
    // max_ngram_order=0: no precision, so no match; sacrebleu scores 0 and
    // keeps the brevity penalty (`BLEU = 0.00  (BP = 0.717 ratio = 0.750
    // hyp_len = 3 ref_len = 4)`, with or without effective order).
    for opts in ["ngram:0", "ngram:0|eff:yes"] {
        let cfg = BleuConfig::parse(opts).unwrap();
        assert_eq!(cfg.sentence_score("a b c", &["a b c d"]).unwrap(), 0.0, "{opts}");
        let st = corpus(&cfg, &[("a b c", vec!["a b c d"])]);
        let d = st.score_details(&cfg).unwrap();
        assert_eq!((d.score, d.precisions.len(), d.bp, d.sys_len, d.ref_len), (0.0, 0, 0.7165313105737893, 3, 4));
        let verbose = crate::metric::Metric::verbose(&cfg, &[3.0, 4.0]).unwrap();
        assert_eq!(verbose, " (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)", "{opts}");
    }
}

#[test]
fn options_parse_and_round_trip() {
    let c = BleuConfig::parse("tok:intl|case:lc|eff:yes|smooth:floor[0.50]|ngram:3").unwrap();
    assert_eq!(
        c,
        BleuConfig {
            lowercase: true,
            tokenizer: BleuTokenizer::Intl,
            smooth: Smoothing::Floor(0.5),
            max_ngram_order: 3,
            effective_order: true,
        }
    );
    assert_eq!(
        c.signature(NRefs::Fixed(2)).to_string(),
        format!("nrefs:2|case:lc|eff:yes|tok:intl|smooth:floor[0.50]|ngram:3|version:2.6.0|impl:mteval-{IMPL_VERSION}")
    );
    let d = BleuConfig::default().signature(NRefs::Fixed(1)).to_string();
    assert_eq!(d, format!("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|impl:mteval-{IMPL_VERSION}"));
    assert_eq!(BleuConfig::parse(&d).unwrap(), BleuConfig::default());
    assert_eq!(BleuConfig::parse("").unwrap(), BleuConfig::default());
    assert_eq!(BleuConfig::sentence(), BleuConfig::parse("eff:yes").unwrap());
    // Smoothing values: default, bracketed, separate, both (agreeing).
    assert_eq!(BleuConfig::parse("smooth:floor").unwrap().smooth, Smoothing::Floor(0.1));
    assert_eq!(BleuConfig::parse("smooth:add-k").unwrap().smooth, Smoothing::AddK(1.0));
    assert_eq!(BleuConfig::parse("smooth:add-k|smooth_value:2").unwrap().smooth, Smoothing::AddK(2.0));
    assert_eq!(BleuConfig::parse("smooth:floor[0.25]|smooth_value:0.25").unwrap().smooth, Smoothing::Floor(0.25));
    assert_eq!(BleuConfig::parse("smooth:exp|smooth_value:0.3").unwrap().smooth, Smoothing::Exp);
    assert_eq!(BleuConfig::parse("smooth_value:0.3").unwrap().smooth, Smoothing::Exp);
    let floor = BleuConfig { smooth: Smoothing::Floor(0.1), ..BleuConfig::default() };
    assert_eq!(BleuConfig::parse_with(floor, "smooth_value:0.3").unwrap().smooth, Smoothing::Floor(0.3));
    // sacrebleu prints the value with two decimals, rounding half to even.
    for (v, want) in [(0.125, "floor[0.12]"), (0.375, "floor[0.38]"), (0.123, "floor[0.12]"), (20.0, "floor[20.00]")] {
        assert_eq!(Smoothing::Floor(v).signature_value(), want);
    }
    // trg_lang chooses the tokenizer only when tok is not given.
    assert_eq!(BleuConfig::parse("trg_lang:zh").unwrap().tokenizer, BleuTokenizer::Zh);
    assert_eq!(BleuConfig::parse("trg_lang:zh|tok:13a").unwrap().tokenizer, BleuTokenizer::V13a);
    assert_eq!(BleuConfig::parse("trg_lang:de").unwrap().tokenizer, BleuTokenizer::V13a);
    assert_eq!(BleuConfig::parse("trg_lang:zh-CN").unwrap().tokenizer, BleuTokenizer::V13a);
    assert_eq!(BleuConfig::parse("trg_lang:ja|tok:char").unwrap().tokenizer, BleuTokenizer::Char);
}

#[test]
fn bad_options_are_clear_errors() {
    let err = |o: &str| BleuConfig::parse(o).unwrap_err().to_string();
    for (opts, says) in [
        ("tok:ja-mecab", "needs MeCab"),
        ("tok:ko-mecab", "needs MeCab"),
        ("tok:spm", "SentencePiece model"),
        ("tok:flores101", "FLORES-101 SentencePiece model"),
        ("tok:flores200", "FLORES-200 SentencePiece model"),
        ("tok:spBLEU-1K", "spBLEU-1K SentencePiece model"),
        ("trg_lang:ja", "trg_lang:ja selects tok:ja-mecab"),
        ("trg_lang:ko", "needs MeCab"),
        ("tok:tercom", "expected 13a, none, char, zh, intl"),
        ("smooth:exp[0.1]", "only after floor or add-k"),
        ("smooth:floor[x]", "a number"),
        ("smooth:floor[-1]", "a number from 0 to 1e300"),
        ("smooth:floor[0.5", "expected exp, none"),
        ("smooth:add-k[1]|smooth_value:2", "disagree"),
        ("smooth:linear", "expected exp, none"),
        ("smooth_value:inf", "a number from 0 to 1e300"),
        ("ngram:33", "0..=32"),
        ("ngram:-1", "0..=32"),
        ("case:upper", "mixed or lc"),
        ("eff:maybe", "yes or no"),
        ("trg_lang:surely-not-a-value", "language code"),
        ("colour:red", "unknown key 'colour'"),
    ] {
        let e = err(opts);
        assert!(e.contains(says), "{opts}: {e}");
        assert!(e.starts_with("invalid BLEU option"), "{opts}: {e}");
    }
}

#[test]
fn every_documented_option_value_parses() {
    let unknown = BleuConfig::parse("colour:red").unwrap_err().to_string();
    for k in OPTIONS {
        let mut n = 0;
        for v in k.listed_values() {
            let opts = format!("{}:{v}", k.key);
            assert!(BleuConfig::parse(&opts).is_ok(), "{opts}");
            n += 1;
        }
        assert!(n > 0, "{} lists no value", k.key);
        assert!(BleuConfig::parse(&format!("{}:surely-not-a-value", k.key)).is_err(), "{}", k.key);
        assert!(unknown.contains(k.key), "{unknown} does not name {}", k.key);
    }
}

#[test]
fn lowercase_uses_pythons_str_lower() {
    // BLEU(lowercase=True, effective_order=True).sentence_score(h, [r]).score
    let cfg = BleuConfig::parse("case:lc|eff:yes").unwrap();
    assert_eq!(cfg.sentence_score("İSTANBUL ΟΔΟΣ", &["i̇stanbul οδος"]).unwrap(), 100.00000000000004);
    assert_eq!(cfg.sentence_score("ΟΔΟΣ ΣΟΦΟΣ", &["οδοσ σοφοσ"]).unwrap(), 0.0);
}

/// The sentences of [`SENTENCE`].
const SENTENCE_CASES: [(&str, &[&str]); 13] = [
    ("The cat sat on the mat.", &["The fat cat sat on the mat."]),
    ("the cat", &["the cat sat"]),
    ("a b c d e", &["a b x d e f"]),
    ("hello", &["hello world"]),
    ("", &["a b"]),
    ("a b", &[""]),
    ("", &[""]),
    ("the quick brown fox jumps", &["the fast brown fox jumped over it", "a quick brown fox jumps", "quick fox"]),
    ("a b c d", &["a b c", "a b c d e"]),
    ("The CAT sat on the Mat", &["the cat sat on the mat today"]),
    ("the the the the", &["the cat", "the the cat"]),
    ("x y z", &["a b c"]),
    ("one two three four five six seven", &["one two three four five six seven eight"]),
];

// BLEU(**kwargs).sentence_score(hyp, refs).score for each of SENTENCE_CASES, kwargs from the options.
#[rustfmt::skip]
const SENTENCE: &[(&str, [f64; 13])] = &[
    ("", [72.89545183625967, 0.0, 24.736929544091932, 0.0, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 25.57539057896621, 31.947155212313625, 0.0, 86.6877899750182]),
    ("eff:yes", [72.89545183625967, 60.653065971263366, 24.736929544091932, 36.78794411714425, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 25.57539057896621, 31.947155212313625, 0.0, 86.6877899750182]),
    ("smooth:none", [72.89545183625967, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 0.0, 0.0, 0.0, 86.6877899750182]),
    ("smooth:none|eff:yes", [72.89545183625967, 60.653065971263366, 0.0, 36.78794411714425, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 0.0, 0.0, 0.0, 86.6877899750182]),
    ("smooth:floor", [72.89545183625967, 0.0, 13.155831089736138, 0.0, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 17.103294495668976, 16.990442448471217, 0.0, 86.6877899750182]),
    ("smooth:floor|eff:yes", [72.89545183625967, 60.653065971263366, 13.155831089736138, 36.78794411714425, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 17.103294495668976, 16.990442448471217, 0.0, 86.6877899750182]),
    ("smooth:add-k", [75.36998328984836, 60.653065971263366, 36.61475238303925, 36.78794411714425, 0.0, 0.0, 0.0, 79.52707287670508, 100.00000000000004, 33.65910691208744, 45.180100180492246, 0.0, 86.6877899750182]),
    ("smooth:add-k|eff:yes", [75.36998328984836, 60.653065971263366, 36.61475238303925, 36.78794411714425, 0.0, 0.0, 0.0, 79.52707287670508, 100.00000000000004, 33.65910691208744, 45.180100180492246, 0.0, 86.6877899750182]),
    ("smooth:floor[0.50]|eff:yes", [72.89545183625967, 60.653065971263366, 29.417332617155147, 36.78794411714425, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 25.57539057896621, 37.99178428257963, 0.0, 86.6877899750182]),
    ("smooth:add-k[0.25]", [73.6137203587731, 60.653065971263366, 20.08239624833484, 36.78794411714425, 0.0, 0.0, 0.0, 73.64279629038002, 100.00000000000004, 22.33625318521627, 25.567957494892184, 0.0, 86.6877899750182]),
    ("ngram:2", [79.13476338264611, 60.653065971263366, 51.781079403026716, 0.0, 0.0, 0.0, 0.0, 86.60254037844388, 100.00000000000004, 37.85581357133377, 40.82482904638629, 0.0, 86.6877899750182]),
    ("ngram:6|eff:yes", [64.30815592300947, 60.653065971263366, 20.73417964419311, 36.78794411714425, 0.0, 0.0, 0.0, 65.97539553864473, 100.00000000000004, 19.057125017218464, 31.947155212313625, 0.0, 86.68778997501828]),
    ("ngram:1", [86.6877899750182, 60.653065971263366, 65.49846024623854, 36.78794411714425, 0.0, 0.0, 0.0, 100.00000000000004, 100.00000000000004, 42.3240862445307, 49.99999999999999, 0.0, 86.6877899750182]),
    ("case:lc|eff:yes", [72.89545183625967, 60.653065971263366, 24.736929544091932, 36.78794411714425, 0.0, 0.0, 0.0, 70.71067811865478, 100.00000000000004, 84.64817248906144, 31.947155212313625, 0.0, 86.6877899750182]),
];

// BLEU(max_ngram_order=N)._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
const STATS: &[(usize, &str, &[&str], &[u64])] = &[
    (4, "The cat sat on the mat.", &["The fat cat sat on the mat."], &[7, 8, 7, 5, 4, 3, 7, 6, 5, 4]),
    (4, "the cat", &["the cat sat"], &[2, 3, 2, 1, 0, 0, 2, 1, 0, 0]),
    (4, "a b c d e", &["a b x d e f"], &[5, 6, 4, 2, 0, 0, 5, 4, 3, 2]),
    (4, "hello", &["hello world"], &[1, 2, 1, 0, 0, 0, 1, 0, 0, 0]),
    (4, "", &["a b"], &[0, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
    (4, "a b", &[""], &[2, 0, 0, 0, 0, 0, 2, 1, 0, 0]),
    (4, "", &[""], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    (
        4,
        "the quick brown fox jumps",
        &["the fast brown fox jumped over it", "a quick brown fox jumps", "quick fox"],
        &[5, 5, 5, 3, 2, 1, 5, 4, 3, 2],
    ),
    (4, "a b c d", &["a b c", "a b c d e"], &[4, 3, 4, 3, 2, 1, 4, 3, 2, 1]),
    (4, "The CAT sat on the Mat", &["the cat sat on the mat today"], &[6, 7, 3, 2, 1, 0, 6, 5, 4, 3]),
    (4, "the the the the", &["the cat", "the the cat"], &[4, 3, 2, 1, 0, 0, 4, 3, 2, 1]),
    (4, "x y z", &["a b c"], &[3, 3, 0, 0, 0, 0, 3, 2, 1, 0]),
    (
        4,
        "one two three four five six seven",
        &["one two three four five six seven eight"],
        &[7, 8, 7, 6, 5, 4, 7, 6, 5, 4],
    ),
    (2, "The cat sat on the mat.", &["The fat cat sat on the mat."], &[7, 8, 7, 5, 7, 6]),
    (2, "the cat", &["the cat sat"], &[2, 3, 2, 1, 2, 1]),
    (2, "a b c d e", &["a b x d e f"], &[5, 6, 4, 2, 5, 4]),
    (2, "hello", &["hello world"], &[1, 2, 1, 0, 1, 0]),
    (2, "", &["a b"], &[0, 2, 0, 0, 0, 0]),
    (2, "a b", &[""], &[2, 0, 0, 0, 2, 1]),
    (2, "", &[""], &[0, 0, 0, 0, 0, 0]),
    (
        2,
        "the quick brown fox jumps",
        &["the fast brown fox jumped over it", "a quick brown fox jumps", "quick fox"],
        &[5, 5, 5, 3, 5, 4],
    ),
    (2, "a b c d", &["a b c", "a b c d e"], &[4, 3, 4, 3, 4, 3]),
    (2, "The CAT sat on the Mat", &["the cat sat on the mat today"], &[6, 7, 3, 2, 6, 5]),
    (2, "the the the the", &["the cat", "the the cat"], &[4, 3, 2, 1, 4, 3]),
    (2, "x y z", &["a b c"], &[3, 3, 0, 0, 3, 2]),
    (2, "one two three four five six seven", &["one two three four five six seven eight"], &[7, 8, 7, 6, 7, 6]),
    (6, "The cat sat on the mat.", &["The fat cat sat on the mat."], &[7, 8, 7, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2]),
    (6, "the cat", &["the cat sat"], &[2, 3, 2, 1, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0]),
    (6, "a b c d e", &["a b x d e f"], &[5, 6, 4, 2, 0, 0, 0, 0, 5, 4, 3, 2, 1, 0]),
    (6, "hello", &["hello world"], &[1, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]),
    (6, "", &["a b"], &[0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    (6, "a b", &[""], &[2, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0]),
    (6, "", &[""], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    (
        6,
        "the quick brown fox jumps",
        &["the fast brown fox jumped over it", "a quick brown fox jumps", "quick fox"],
        &[5, 5, 5, 3, 2, 1, 0, 0, 5, 4, 3, 2, 1, 0],
    ),
    (6, "a b c d", &["a b c", "a b c d e"], &[4, 3, 4, 3, 2, 1, 0, 0, 4, 3, 2, 1, 0, 0]),
    (6, "The CAT sat on the Mat", &["the cat sat on the mat today"], &[6, 7, 3, 2, 1, 0, 0, 0, 6, 5, 4, 3, 2, 1]),
    (6, "the the the the", &["the cat", "the the cat"], &[4, 3, 2, 1, 0, 0, 0, 0, 4, 3, 2, 1, 0, 0]),
    (6, "x y z", &["a b c"], &[3, 3, 0, 0, 0, 0, 0, 0, 3, 2, 1, 0, 0, 0]),
    (
        6,
        "one two three four five six seven",
        &["one two three four five six seven eight"],
        &[7, 8, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2],
    ),
];

/// sacrebleu's corpus BLEU over [`CASES`] with options: `options<TAB>score<TAB>signature`
/// lines (`#`: comments).
const CORPUS: &str = include_str!("sacrebleu_corpus.tsv");

// BLEU(**kwargs).corpus_score(hyps, [refs1]) over CASES: score, precisions, bp, sys_len, ref_len.
/// Options, score, precisions, bp, `sys_len`, `ref_len`.
type Details = (&'static str, f64, &'static [f64], f64, u64, u64);

const CORPUS_DETAILS: &[Details] = &[
    (
        "",
        45.513672642994706,
        &[67.3913043478261, 54.285714285714285, 44.0, 41.1764705882353],
        0.8970033769865935,
        46,
        51,
    ),
    (
        "smooth:add-k|eff:yes",
        47.22079149967197,
        &[67.3913043478261, 55.55555555555556, 46.15384615384615, 44.44444444444444],
        0.8970033769865935,
        46,
        51,
    ),
    (
        "ngram:6|smooth:none",
        46.68881193565171,
        &[67.3913043478261, 54.285714285714285, 44.0, 41.1764705882353, 50.0, 60.0],
        0.8970033769865935,
        46,
        51,
    ),
];

// sacrebleu.tokenizers: Tokenizer13a()(s), NoneTokenizer()(s), TokenizerChar()(s), TokenizerZh()(s),
// TokenizerV14International()(s).
const TOKENIZER_ORDER: [&str; 5] = ["13a", "none", "char", "zh", "intl"];

/// Inputs and what each tokenizer makes of them, in the order of
/// [`TOKENIZER_ORDER`] (sacrebleu 2.6.0 `_get_tokenizer(name)()(line)`).
const TOKENIZED: &[(&str, [&str; 5])] = &[
    (
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        [
            "Hello , world ! It's 3.5 - 4 \" quoted \" & done .",
            "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
            "H e l l o ,   w o r l d !   I t ' s   3 . 5 - 4   & q u o t ; q u o t e d & q u o t ;   & a m p ;   d o n e .",
            "Hello , world ! It's 3.5 - 4 & quot ; quoted & quot ; & amp ; done .",
            "Hello , world ! It ' s 3.5-4 & quot ; quoted & quot ; & amp ; done .",
        ],
    ),
    (
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        [
            "& quot ; & AMP ; < tag > a & b xy z",
            "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
            "& a m p ; q u o t ;   & A M P ;   & l t ; t a g & g t ;   a & b   < s k i p p e d >   x - \n y \n z",
            "& amp ; quot ; & AMP ; & lt ; tag & gt ; a & b < skipped > x- y z",
            "& amp ; quot ; & AMP ; & lt ; tag & gt ; a & b < skipped > x - y z",
        ],
    ),
    (
        "1,000.50 and 3,14 or 2-3 x-y 10-20-30 .5 5. a.b a..b ,a a,b",
        [
            "1,000.50 and 3,14 or 2 - 3 x-y 10 - 20 - 30 . 5 5 . a . b a . . b , a a , b",
            "1,000.50 and 3,14 or 2-3 x-y 10-20-30 .5 5. a.b a..b ,a a,b",
            "1 , 0 0 0 . 5 0   a n d   3 , 1 4   o r   2 - 3   x - y   1 0 - 2 0 - 3 0   . 5   5 .   a . b   a . . b   , a   a , b",
            "1,000.50 and 3,14 or 2 - 3 x-y 10 - 20 - 30 . 5 5 . a . b a . . b , a a , b",
            "1,000.50 and 3,14 or 2-3 x - y 10-20-30 . 5 5 . a . b a . . b , a a , b",
        ],
    ),
    (
        "U.S.A. e.g. $5 (and) [x] {y} @user #tag 50% a/b a\\b ~ ` ^ | _ ' \"",
        [
            "U . S . A . e . g . $ 5 ( and ) [ x ] { y } @ user # tag 50 % a / b a \\ b ~ ` ^ | _ ' \"",
            "U.S.A. e.g. $5 (and) [x] {y} @user #tag 50% a/b a\\b ~ ` ^ | _ ' \"",
            "U . S . A .   e . g .   $ 5   ( a n d )   [ x ]   { y }   @ u s e r   # t a g   5 0 %   a / b   a \\ b   ~   `   ^   |   _   '   \"",
            "U . S . A . e . g . $ 5 ( and ) [ x ] { y } @ user # tag 50 % a / b a \\ b ~ ` ^ | _ ' \"",
            "U . S . A . e . g . $ 5 ( and ) [ x ] { y } @ user # tag 50 % a / b a \\ b ~ ` ^ | _ ' \"",
        ],
    ),
    (
        "  leading and trailing\t\u{3000} ",
        [
            "leading and trailing",
            "  leading and trailing\t\u{3000} ",
            "    l e a d i n g   a n d   t r a i l i n g \t \u{3000}  ",
            "leading and trailing",
            "leading and trailing",
        ],
    ),
    (
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        [
            "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
            "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
            "我 爱 北 京 天 安 门 。 他 说 ： “ 你 好 ！ ” — —   2 0 2 3 年 ， 价 格 是 ￥ 3 . 5 元 …",
            "我 爱 北 京 天 安 门 。 他 说 ： “ 你 好 ！ ” — — 2023 年 ， 价 格 是 ￥ 3.5 元 …",
            "我爱北京天安门 。 他说 ： “ 你好 ！ ” — — 2023年 ， 价格是 ￥ 3.5元 …",
        ],
    ),
    (
        "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ 한국어 テスト 〈括弧〉 ☺ ★ ✓ €5 — ‘quote’",
        [
            "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ 한국어 テスト 〈括弧〉 ☺ ★ ✓ €5 — ‘quote’",
            "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ 한국어 テスト 〈括弧〉 ☺ ★ ✓ €5 — ‘quote’",
            "Ｆ ｕ ｌ ｌ ｗ ｉ ｄ ｔ ｈ   Ａ Ｂ Ｃ   １ ２ ３   한 국 어   テ ス ト   〈 括 弧 〉   ☺   ★   ✓   € 5   —   ‘ q u o t e ’",
            "Ｆ ｕ ｌ ｌ ｗ ｉ ｄ ｔ ｈ Ａ Ｂ Ｃ １ ２ ３ 한국어 テスト 〈 括 弧 〉 ☺ ★ ✓ € 5 — ‘ quote ’",
            "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ 한국어 テスト 〈 括弧 〉 ☺ ★ ✓ € 5 — ‘ quote ’",
        ],
    ),
    (
        "𠀀𠀁 𪛖 丽 abc中文def 1.5万 3,000人",
        [
            "𠀀𠀁 𪛖 丽 abc中文def 1.5万 3,000人",
            "𠀀𠀁 𪛖 丽 abc中文def 1.5万 3,000人",
            "𠀀 𠀁   𪛖   丽   a b c 中 文 d e f   1 . 5 万   3 , 0 0 0 人",
            "𠀀𠀁 𪛖 丽 abc 中 文 def 1.5 万 3,000 人",
            "𠀀𠀁 𪛖 丽 abc中文def 1.5万 3,000人",
        ],
    ),
    (
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        [
            "Il a dit « bonjour » — l’été , c’est 1 500,75 € ; ok ? ¿Qué ? ¡Sí ! 2 + 2 = 4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
            "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
            "I l   a   d i t   «   b o n j o u r   »   —   l ’ é t é ,   c ’ e s t   1   5 0 0 , 7 5   €   ;   o k   ?   ¿ Q u é ?   ¡ S í !   2 + 2 = 4   ± 1   © 2 0 2 0   ®   ™   °   ½   ²   ٣   Ⅻ",
            "Il a dit « bonjour » — l ’ été , c ’ est 1 500,75 € ; ok ? ¿Qué ? ¡Sí ! 2 + 2 = 4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
            "Il a dit « bonjour » — l ’ été , c ’ est 1 500,75 € ; ok ? ¿ Qué ? ¡ Sí ! 2 + 2 = 4 ± 1 © 2020 ® ™ ° ½ ² ٣ Ⅻ",
        ],
    ),
    (
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        [
            "$ 10.50 , 5 % off . . . wait ! ! ! ( really ? ) # 1 @ 2 a-b-c 3.14159 1,2,3 x . y . z 😀👍 ♥ → ∞",
            "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
            "$ 1 0 . 5 0 ,   5 %   o f f . . .   w a i t ! ! !   ( r e a l l y ? )   # 1   @ 2   a - b - c   3 . 1 4 1 5 9   1 , 2 , 3   x . y . z   😀 👍   ♥   →   ∞",
            "$ 10.50 , 5 % off . . . wait ! ! ! ( really ? ) # 1 @ 2 a-b-c 3.14159 1,2,3 x . y . z 😀👍 ♥ → ∞",
            "$ 10.50 , 5 % off . . . wait ! ! ! ( really ? ) # 1 @ 2 a - b - c 3.14159 1,2,3 x . y . z 😀 👍 ♥ → ∞",
        ],
    ),
    (
        "\u{85}x\u{1f}y\u{a0}z\u{200b}w",
        [
            "x y z\u{200b}w",
            "\u{85}x\u{1f}y\u{a0}z\u{200b}w",
            "\u{85} x \u{1f} y \u{a0} z \u{200b} w",
            "x y z \u{200b} w",
            "x y z\u{200b}w",
        ],
    ),
    ("", ["", "", "", "", ""]),
];

// BLEU(tokenize=tok, lowercase=lc)._preprocess_segment(s)
const PREPROCESSED: &[(&str, bool, &str, &str)] = &[
    ("13a", false, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "İSTANBUL ΟΔΟΣ Straße & QUOT ; Hi & QUOT ;"),
    ("13a", true, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "i̇stanbul οδος straße \" hi \""),
    ("zh", false, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "İSTANBUL ΟΔΟΣ Straße & QUOT ; Hi & QUOT ;"),
    ("zh", true, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "i̇stanbul οδος straße & quot ; hi & quot ;"),
    ("intl", false, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "İSTANBUL ΟΔΟΣ Straße & QUOT ; Hi & QUOT ;"),
    ("intl", true, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "i̇stanbul οδος straße & quot ; hi & quot ;"),
    (
        "char",
        false,
        "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n",
        "İ S T A N B U L   Ο Δ Ο Σ   S t r a ß e   & Q U O T ; H i & Q U O T ;",
    ),
    (
        "char",
        true,
        "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n",
        "i ̇ s t a n b u l   ο δ ο ς   s t r a ß e   & q u o t ; h i & q u o t ;",
    ),
    ("none", false, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT;"),
    ("none", true, "İSTANBUL ΟΔΟΣ Straße &QUOT;Hi&QUOT; \t\n", "i̇stanbul οδος straße &quot;hi&quot;"),
    ("13a", false, "A-\nB  \u{3000}", "AB"),
    ("13a", true, "A-\nB  \u{3000}", "ab"),
    ("zh", false, "A-\nB  \u{3000}", "A- B"),
    ("zh", true, "A-\nB  \u{3000}", "a- b"),
    ("intl", false, "A-\nB  \u{3000}", "A - B"),
    ("intl", true, "A-\nB  \u{3000}", "a - b"),
    ("char", false, "A-\nB  \u{3000}", "A - \n B"),
    ("char", true, "A-\nB  \u{3000}", "a - \n b"),
    ("none", false, "A-\nB  \u{3000}", "A-\nB"),
    ("none", true, "A-\nB  \u{3000}", "a-\nb"),
    ("13a", false, "中文ＡＢＣ。 ", "中文ＡＢＣ。"),
    ("13a", true, "中文ＡＢＣ。 ", "中文ａｂｃ。"),
    ("zh", false, "中文ＡＢＣ。 ", "中 文 Ａ Ｂ Ｃ 。"),
    ("zh", true, "中文ＡＢＣ。 ", "中 文 ａ ｂ ｃ 。"),
    ("intl", false, "中文ＡＢＣ。 ", "中文ＡＢＣ 。"),
    ("intl", true, "中文ＡＢＣ。 ", "中文ａｂｃ 。"),
    ("char", false, "中文ＡＢＣ。 ", "中 文 Ａ Ｂ Ｃ 。"),
    ("char", true, "中文ＡＢＣ。 ", "中 文 ａ ｂ ｃ 。"),
    ("none", false, "中文ＡＢＣ。 ", "中文ＡＢＣ。"),
    ("none", true, "中文ＡＢＣ。 ", "中文ａｂｃ。"),
    ("13a", false, "ΣΑΣ, 1.000!\u{1f}", "ΣΑΣ , 1.000 !"),
    ("13a", true, "ΣΑΣ, 1.000!\u{1f}", "σας , 1.000 !"),
    ("zh", false, "ΣΑΣ, 1.000!\u{1f}", "ΣΑΣ , 1.000 !"),
    ("zh", true, "ΣΑΣ, 1.000!\u{1f}", "σας , 1.000 !"),
    ("intl", false, "ΣΑΣ, 1.000!\u{1f}", "ΣΑΣ , 1.000!"),
    ("intl", true, "ΣΑΣ, 1.000!\u{1f}", "σας , 1.000!"),
    ("char", false, "ΣΑΣ, 1.000!\u{1f}", "Σ Α Σ ,   1 . 0 0 0 !"),
    ("char", true, "ΣΑΣ, 1.000!\u{1f}", "σ α ς ,   1 . 0 0 0 !"),
    ("none", false, "ΣΑΣ, 1.000!\u{1f}", "ΣΑΣ, 1.000!"),
    ("none", true, "ΣΑΣ, 1.000!\u{1f}", "σας, 1.000!"),
];

// BLEU(tokenize=tok, effective_order=True).sentence_score(hyp, [ref]).score
const TOKENIZER_SCORES: &[(&str, &str, &str, f64)] = &[
    (
        "13a",
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        2.8398387225677895,
    ),
    (
        "zh",
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        10.545139818021298,
    ),
    (
        "intl",
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        10.030847280375962,
    ),
    (
        "char",
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        22.08448075992719,
    ),
    (
        "none",
        "Hello, world! It's 3.5-4 &quot;quoted&quot; &amp; done.",
        "&amp;quot; &AMP; &lt;tag&gt; a&b <skipped> x-\ny\nz",
        0.0,
    ),
    (
        "13a",
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        "我爱北京。他说：“你好”——2023年价格是￥3.5元",
        0.0,
    ),
    (
        "zh",
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        "我爱北京。他说：“你好”——2023年价格是￥3.5元",
        57.95581498899424,
    ),
    (
        "intl",
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        "我爱北京。他说：“你好”——2023年价格是￥3.5元",
        33.64932442330151,
    ),
    (
        "char",
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        "我爱北京。他说：“你好”——2023年价格是￥3.5元",
        65.15494737682823,
    ),
    (
        "none",
        "我爱北京天安门。他说：“你好！”—— 2023年，价格是￥3.5元…",
        "我爱北京。他说：“你好”——2023年价格是￥3.5元",
        0.0,
    ),
    (
        "13a",
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        "Il a dit « bonjour » — l'été c'est 1 500,75€; ok?",
        20.871196464722193,
    ),
    (
        "zh",
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        "Il a dit « bonjour » — l'été c'est 1 500,75€; ok?",
        26.70423740368599,
    ),
    (
        "intl",
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        "Il a dit « bonjour » — l'été c'est 1 500,75€; ok?",
        30.041210657345754,
    ),
    (
        "char",
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        "Il a dit « bonjour » — l'été c'est 1 500,75€; ok?",
        46.61524155429803,
    ),
    (
        "none",
        "Il a dit « bonjour » — l’été, c’est 1 500,75 € ; ok ? ¿Qué? ¡Sí! 2+2=4 ±1 ©2020 ® ™ ° ½ ² ٣ Ⅻ",
        "Il a dit « bonjour » — l'été c'est 1 500,75€; ok?",
        21.84971203531727,
    ),
    (
        "13a",
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        "$10.50, 5% off... wait! (really) #1 a-b-c 3.14159 1,2,3 😀 → ∞",
        43.221331871524285,
    ),
    (
        "zh",
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        "$10.50, 5% off... wait! (really) #1 a-b-c 3.14159 1,2,3 😀 → ∞",
        43.221331871524285,
    ),
    (
        "intl",
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        "$10.50, 5% off... wait! (really) #1 a-b-c 3.14159 1,2,3 😀 → ∞",
        49.32129844283784,
    ),
    (
        "char",
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        "$10.50, 5% off... wait! (really) #1 a-b-c 3.14159 1,2,3 😀 → ∞",
        70.1382710269378,
    ),
    (
        "none",
        "$10.50, 5% off... wait!!! (really?) #1 @2 a-b-c 3.14159 1,2,3 x.y.z 😀👍 ♥ → ∞",
        "$10.50, 5% off... wait! (really) #1 a-b-c 3.14159 1,2,3 😀 → ∞",
        19.251614434393563,
    ),
];
