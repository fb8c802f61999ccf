//! Terminology match accuracy: exact and lemmatized counts per sentence
//! (arbitrary, often wrong, lemma spans must give an error, never a panic),
//! the literal matcher, and the corpus sums.
//!
//! Input (lossy UTF-8): up to 4 sentences separated by U+001D; each is
//! `prediction U+001E terms U+001E lemmas`. Terms: one per line, alternatives
//! separated by '\t'. Lemmas: one per line, `start end [lemma]` (code points;
//! a missing lemma stands for the surface slice). With no lemma section the
//! lemmas are derived from the prediction's words, so most inputs get past
//! the span checks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::{fields, text};
use mteval_kernels::py::re::{Literal, Text};
use mteval_kernels::terms::{
    Lemma, TermAccuracy, TermSentence, corpus_counts, count_matches, count_matches_exact, exact_matches,
    lemmatized_matches, stanza_sentences,
};
use mteval_kernels::py::text::{is_py_space, py_strip};

struct Sentence {
    pred: String,
    terms: Vec<Vec<String>>,
    lemmas: Vec<(Option<String>, usize, usize)>,
}

fn parse_sentence(s: &str) -> Sentence {
    let parts: Vec<&str> = s.splitn(3, '\u{1e}').collect();
    let pred = mteval_fuzz::truncate(parts[0], 600).to_owned();
    let terms: Vec<Vec<String>> = parts
        .get(1)
        .map(|t| {
            fields(t, '\n', 8, 400)
                .into_iter()
                .map(|line| fields(line, '\t', 4, 60).into_iter().map(str::to_owned).collect())
                .collect()
        })
        .unwrap_or_default();
    let lemmas = match parts.get(2) {
        Some(l) => fields(l, '\n', 64, 200)
            .into_iter()
            .filter(|line| !line.is_empty())
            .map(|line| {
                let mut it = line.splitn(3, ' ');
                let start = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
                let end = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
                (it.next().map(str::to_owned), start, end)
            })
            .collect(),
        None => {
            // The prediction's words with their code-point spans; every other
            // word gets no lemma (the surface slice).
            let mut out = Vec::new();
            let mut start = None;
            let chars: Vec<char> = pred.chars().collect();
            for (i, &c) in chars.iter().chain(std::iter::once(&' ')).enumerate() {
                match (is_py_space(c), start) {
                    (false, None) => start = Some(i),
                    (true, Some(s)) => {
                        let word: String = chars[s..i].iter().collect();
                        let lemma = (out.len() % 2 == 0).then(|| word.to_lowercase());
                        out.push((lemma, s, i));
                        start = None;
                    }
                    _ => {}
                }
            }
            out.truncate(64);
            out
        }
    };
    Sentence { pred, terms, lemmas }
}

fn check_literal(alt: &str, text: &Text) {
    let lit = Literal::new(alt);
    let mut last_end = 0;
    let mut first = true;
    for (s, e) in lit.find_iter(text).take(10_000) {
        assert!(s <= e && e <= text.len(), "span ({s}, {e}) of {alt:?} in a text of {}", text.len());
        assert!(first || s >= last_end, "overlapping matches of {alt:?}");
        first = false;
        last_end = e;
    }
}

fuzz_target!(|data: &[u8]| {
    let s = text(data, 4000);
    let sentences: Vec<Sentence> = s.split('\u{1d}').take(4).map(parse_sentence).collect();

    for st in &sentences {
        let pred = st.pred.as_str();
        let lemmas: Vec<Lemma<'_>> = st.lemmas.iter().map(|(l, a, b)| Lemma::new(l.as_deref(), *a, *b)).collect();
        let terms = &st.terms;
        let total = terms.len() as u32;
        let with_match = {
            let t = Text::new(pred.chars().collect());
            terms
                .iter()
                .filter(|alts| {
                    alts.iter().any(|a| {
                        check_literal(a, &t);
                        Literal::new(a).find_iter(&t).next().is_some()
                    })
                })
                .count() as u32
        };

        let exact = exact_matches(pred, terms);
        assert!(exact == 0 || exact == 1 || exact == with_match, "exact {exact}, {with_match} terms with a match");
        assert!(exact <= with_match);
        assert_eq!(exact == 0, with_match == 0);
        let _ = stanza_sentences(pred);

        let blank = py_strip(pred).is_empty();
        let ce = count_matches_exact(pred, terms);
        assert_eq!(ce.total, total);
        assert_eq!(ce.dropped, blank);
        if blank {
            assert_eq!((ce.exact, ce.lemmatized), (0, 0));
        } else {
            assert_eq!(ce.exact, if terms.is_empty() { 0 } else { exact });
            assert_eq!(ce.lemmatized, ce.exact);
        }

        let raw = lemmatized_matches(pred, &lemmas, terms);
        if let Ok(r) = raw {
            assert!(r <= total);
        }
        if lemmas.iter().any(|l| l.end < l.start) || lemmas.is_empty() {
            assert!(raw.is_err(), "bad lemma spans accepted: {:?}", st.lemmas);
        }

        let c = count_matches(pred, &lemmas, terms);
        if blank || terms.is_empty() {
            assert!(c.is_ok(), "{c:?} for a blank prediction or no terms");
        }
        if !blank && !terms.is_empty() {
            assert_eq!(c.is_err(), raw.is_err());
        }
        if let Ok(c) = c {
            assert_eq!(c.total, total);
            assert_eq!(c.dropped, blank);
            assert_eq!(c.exact, ce.exact);
            assert!(c.exact <= c.lemmatized && c.lemmatized <= c.total, "{c:?}");
            assert_eq!(c.wrong(), c.total - c.lemmatized);
            if let Ok(r) = raw {
                if !blank && !terms.is_empty() {
                    assert_eq!(c.lemmatized, r.max(exact));
                    assert_eq!(c.lemmatized_below_exact, r < exact);
                }
            }
        }
    }

    // Corpus sums.
    let lemma_vecs: Vec<Vec<Lemma<'_>>> = sentences
        .iter()
        .map(|st| st.lemmas.iter().map(|(l, a, b)| Lemma::new(l.as_deref(), *a, *b)).collect())
        .collect();
    let corpus: Vec<TermSentence<'_, Vec<String>>> = sentences
        .iter()
        .zip(&lemma_vecs)
        .map(|(st, l)| TermSentence { prediction: &st.pred, lemmas: l, terms: &st.terms })
        .collect();
    if let Ok(acc) = corpus_counts(&corpus) {
        assert!(acc.check().is_ok());
        assert!(acc.exact_correct <= acc.lemmatized_correct);
        assert!(acc.lemmatized_correct <= acc.n_terms_denominator);
        for x in [acc.exact_accuracy(), acc.lemmatized_accuracy()] {
            assert_eq!(x.is_none(), acc.n_terms_denominator == 0);
            assert!(x.is_none_or(|x| (0.0..=1.0).contains(&x)));
        }
        let mut merged = TermAccuracy::default();
        merged.merge(&acc);
        assert_eq!(merged, acc);
    }
});
