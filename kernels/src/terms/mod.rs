//! Terminology match accuracy (exact and lemmatized), exactly as the CBS
//! rewrite computes it.
//!
//! * Reference implementation matched: `match_accuracy.py` of
//!   `FredericOdermatt/match_accuracy`, commit `29547205e0b9` (used for arXiv
//!   2305.14538), run under `CPython` 3.11.
//! * Each term is a list of alternatives. An alternative matches as an escaped
//!   literal, case-insensitively with Python `re.IGNORECASE` semantics. It needs
//!   boundaries: the characters just outside it must not be ASCII
//!   alphanumerics (under `IGNORECASE` also İ, ı, ſ, K). It may sit inside a
//!   longer token. Matches are enumerated as `re.finditer` does: leftmost-first,
//!   non-overlapping, with spans in code points. See [`crate::py::re`].
//! * The count is **not** a maximum disjoint matching. The reference counts
//!   the K terms that have a match when one choice of one span per term has a
//!   bitwise AND of *all* masks equal to zero. Otherwise it counts 1, or 0 when
//!   no term matches. See [`search`]. `a b` with `[[a],[a],[a],[b]]` counts 4.
//! * Lemmatized: spans are also searched in a lemma string (every lemma
//!   followed by a space), and a span in one space also blocks the words it
//!   touches in the other (see [`Lemma`] and the `lemma` module). The
//!   reference's input checks are reproduced as [`MetricError::InvalidInput`]
//!   errors. Their reason is the Python exception as `"Type: message"`.
//! * Per sentence ([`count_matches`]): no terms → 0; the lemmatized count is
//!   raised to the exact count when it is lower (the reference logs a
//!   warning: [`TermCounts::lemmatized_below_exact`]); wrong = terms −
//!   lemmatized.
//! * Corpus ([`TermAccuracy`], [`corpus_counts`]): sums over sentences.
//!   Predictions that are empty or whitespace-only are dropped before matching.
//!   Their terms count as wrong, but they are left out of the accuracy
//!   denominator. Exact / lemmatized accuracy = matched / denominator.
//!
//! Deviations (inputs the reference does not check): a [`Lemma`] whose `end`
//! is before its `start` is an error. The Unicode case tables are those of
//! Python 3.11 (Unicode 14.0; newer case pairs are masked out).

mod lemma;
pub mod metric;
pub mod search;

pub use lemma::Lemma;
pub use search::{SpanMask, matched_terms};

use crate::MetricError;
use crate::py::re::{Literal, Text};
use crate::py::text::py_strip;

/// The commit of `FredericOdermatt/match_accuracy` this module reproduces.
pub const REFERENCE_COMMIT: &str = "29547205e0b922e2eabdccc97582199e20253b67";

const METRIC: &str = "term accuracy";

/// The reproducibility signature of term match accuracy, e.g.
/// `variant:exact|version:29547205e0b9|impl:mteval-0.1.0` (`variant:lemmatized`
/// for the lemmatized count; version = the reference commit).
#[must_use]
pub fn signature(lemmatized: bool) -> crate::Signature {
    let mut s = crate::Signature::default();
    s.push("variant", if lemmatized { "lemmatized" } else { "exact" });
    s.stamped(&REFERENCE_COMMIT[..12])
}

pub(crate) fn invalid(reason: String) -> MetricError {
    MetricError::InvalidInput { metric: METRIC, reason }
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// The span masks of every term in the prediction alone (`maximally_match`).
fn exact_masks<T: AsRef<[S]>, S: AsRef<str>>(text: &Text, terms: &[T]) -> Vec<Vec<SpanMask>> {
    let n = text.len();
    terms
        .iter()
        .map(|term| {
            let mut masks = Vec::new();
            for alt in term.as_ref() {
                let lit = Literal::new(alt.as_ref());
                masks.extend(lit.find_iter(text).map(|(s, e)| SpanMask::range(n, s, e)));
            }
            masks
        })
        .collect()
}

/// The reference's `maximally_match(pred, terms, "a-zA-Z0-9")`: how many
/// terms it counts as found in `pred` (0, 1 or the number of terms with a
/// match). Works on any prediction, empty ones included.
#[must_use]
pub fn exact_matches<T: AsRef<[S]>, S: AsRef<str>>(pred: &str, terms: &[T]) -> u32 {
    let text = Text::new(pred.chars().collect());
    to_u32(matched_terms(&exact_masks(&text, terms)))
}

/// The reference's `maximally_match_with_lemmatized(pred, pred_l, terms,
/// "a-zA-Z0-9")`, before [`count_matches`] raises it to the exact count.
///
/// The masks cover the prediction's code points at positions `0..n` and
/// the lemma string's at `n..` (the reference uses another, equivalent bit
/// order). A match in the prediction also covers the lemma spans of the
/// words under it, and a match in the lemma string also covers the
/// prediction spans of its words.
///
/// # Errors
/// [`MetricError::InvalidInput`] where the reference raises, with the
/// exception as reason: a run of two or more spaces that the word walk
/// never reaches (`AssertionError: Extra spaces should be empty: …`), no
/// words (`ZeroDivisionError: division by zero`; every empty prediction),
/// word spans past the end (`IndexError: …`), or characters other than
/// whitespace that no word covers (`AssertionError: Mapping should have
/// removed all characters: …`; e.g. a space followed by a tab). Also
/// when a word's `end` is before its `start`.
pub fn lemmatized_matches<T: AsRef<[S]>, S: AsRef<str>>(
    pred: &str,
    lemmas: &[Lemma<'_>],
    terms: &[T],
) -> Result<u32, MetricError> {
    let pred_chars: Vec<char> = pred.chars().collect();
    let map = lemma::build(&pred_chars, lemmas)?;
    let text = Text::new(pred_chars);
    let n = text.len();
    let n_bits = n + map.lem.len();
    let masks: Vec<Vec<SpanMask>> = terms
        .iter()
        .map(|term| {
            let mut masks = Vec::new();
            for alt in term.as_ref() {
                let lit = Literal::new(alt.as_ref());
                for (s, e) in lit.find_iter(&text) {
                    let mut m = SpanMask::range(n_bits, s, e);
                    for k in dedup_words(&map.to_lem[s..e]) {
                        let (ls, le) = map.words[k].lem;
                        m.insert_range(n + ls, n + le);
                    }
                    masks.push(m);
                }
                for (s, e) in lit.find_iter(&map.lem) {
                    let mut m = SpanMask::range(n_bits, n + s, n + e);
                    for k in dedup_words(&map.to_orig[s..e]) {
                        let (os, oe) = map.words[k].orig;
                        m.insert_range(os, oe);
                    }
                    masks.push(m);
                }
            }
            masks
        })
        .collect();
    Ok(to_u32(matched_terms(&masks)))
}

/// The words of a dense-map slice, with consecutive repeats removed.
fn dedup_words(map: &[Option<usize>]) -> impl Iterator<Item = usize> + '_ {
    let mut last = None;
    map.iter().filter_map(move |&w| {
        if w.is_some() && w != last {
            last = w;
            w
        } else {
            None
        }
    })
}

/// How many sentences stanza's pretokenized mode makes of a prediction: its
/// `'\n'`-separated lines that are not blank. The corpus function of the
/// reference pairs the i-th stanza sentence with the i-th kept prediction.
/// So each kept prediction must give exactly one (see [`TermAccuracy::check`]).
#[must_use]
pub fn stanza_sentences(pred: &str) -> u32 {
    to_u32(pred.split('\n').filter(|line| !py_strip(line).is_empty()).count())
}

/// One sentence's counts, as `count_matches` gives them, with the treatment
/// of dropped predictions that `get_match_accuracies` applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TermCounts {
    /// Terms matched in the prediction.
    pub exact: u32,
    /// Terms matched in the prediction or the lemma string, raised to
    /// `exact` when lower.
    pub lemmatized: u32,
    /// Number of terms of the sentence.
    pub total: u32,
    /// The prediction is empty or whitespace-only (`pred.strip() == ""`).
    /// The corpus drops it: 0 matched, its terms count as wrong but are
    /// left out of the accuracy denominator.
    pub dropped: bool,
    /// The raw lemmatized count was below the exact one and was raised
    /// (the reference logs a warning).
    pub lemmatized_below_exact: bool,
    /// [`stanza_sentences`] of the prediction (for the corpus alignment check).
    pub lemma_sentences: u32,
}

impl TermCounts {
    /// Terms matched neither way: `total − lemmatized`.
    #[must_use]
    pub const fn wrong(&self) -> u32 {
        self.total.saturating_sub(self.lemmatized)
    }

    fn dropped(total: usize) -> Self {
        Self { total: to_u32(total), dropped: true, ..Self::default() }
    }
}

/// Exact matching only, per sentence, as the corpus treats it. A dropped
/// (empty or whitespace-only) prediction matches nothing. `lemmatized`
/// equals `exact`.
#[must_use]
pub fn count_matches_exact<T: AsRef<[S]>, S: AsRef<str>>(pred: &str, terms: &[T]) -> TermCounts {
    if py_strip(pred).is_empty() {
        return TermCounts::dropped(terms.len());
    }
    let exact = if terms.is_empty() { 0 } else { exact_matches(pred, terms) };
    TermCounts {
        exact,
        lemmatized: exact,
        total: to_u32(terms.len()),
        dropped: false,
        lemmatized_below_exact: false,
        lemma_sentences: stanza_sentences(pred),
    }
}

/// The reference's `count_matches(pred, pred_l, terms)`, with the corpus
/// treatment of dropped predictions: an empty or whitespace-only prediction
/// gives 0 matched and no error (the reference called directly would raise
/// `ZeroDivisionError` there). A sentence without terms gives 0 before the
/// lemma mapping is built, so it never errors.
///
/// # Errors
/// As [`lemmatized_matches`], for a kept prediction with terms.
pub fn count_matches<T: AsRef<[S]>, S: AsRef<str>>(
    pred: &str,
    lemmas: &[Lemma<'_>],
    terms: &[T],
) -> Result<TermCounts, MetricError> {
    if py_strip(pred).is_empty() {
        return Ok(TermCounts::dropped(terms.len()));
    }
    let lemma_sentences = stanza_sentences(pred);
    if terms.is_empty() {
        return Ok(TermCounts { lemma_sentences, ..TermCounts::default() });
    }
    let exact = exact_matches(pred, terms);
    let raw = lemmatized_matches(pred, lemmas, terms)?;
    Ok(TermCounts {
        exact,
        lemmatized: raw.max(exact),
        total: to_u32(terms.len()),
        dropped: false,
        lemmatized_below_exact: raw < exact,
        lemma_sentences,
    })
}

/// Corpus sums of [`TermCounts`], as `get_match_accuracies` forms them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TermAccuracy {
    /// Σ exact matches (`exact match correct`).
    pub exact_correct: u64,
    /// Σ lemmatized matches (`lemmatized match correct`).
    pub lemmatized_correct: u64,
    /// Σ terms matched neither way, dropped sentences' terms included
    /// (`wrong exact and lemmatized`).
    pub wrong: u64,
    /// Σ terms of the kept (not dropped) sentences: the accuracy denominator.
    pub n_terms_denominator: u64,
    /// Number of kept predictions.
    pub kept_predictions: u64,
    /// Σ [`TermCounts::lemma_sentences`].
    pub lemma_sentences: u64,
}

impl TermAccuracy {
    /// The sums in field order, as an aggregate's state holds them.
    #[must_use]
    pub const fn to_array(&self) -> [u64; 6] {
        [
            self.exact_correct,
            self.lemmatized_correct,
            self.wrong,
            self.n_terms_denominator,
            self.kept_predictions,
            self.lemma_sentences,
        ]
    }

    /// The sums of [`Self::to_array`]'s layout.
    #[must_use]
    pub const fn from_array(a: [u64; 6]) -> Self {
        Self {
            exact_correct: a[0],
            lemmatized_correct: a[1],
            wrong: a[2],
            n_terms_denominator: a[3],
            kept_predictions: a[4],
            lemma_sentences: a[5],
        }
    }

    /// Adds one sentence.
    pub fn add(&mut self, c: &TermCounts) {
        self.exact_correct += u64::from(c.exact);
        self.lemmatized_correct += u64::from(c.lemmatized);
        self.wrong += u64::from(c.wrong());
        self.lemma_sentences += u64::from(c.lemma_sentences);
        if !c.dropped {
            self.n_terms_denominator += u64::from(c.total);
            self.kept_predictions += 1;
        }
    }

    /// Adds another partial sum.
    pub fn merge(&mut self, o: &Self) {
        let (a, b) = (self.to_array(), o.to_array());
        *self = Self::from_array(std::array::from_fn(|i| a[i] + b[i]));
    }

    #[allow(clippy::cast_precision_loss, reason = "exact below 2^53; the division is correctly rounded, like Python's")]
    fn ratio(&self, num: u64) -> Option<f64> {
        (self.n_terms_denominator > 0).then(|| num as f64 / self.n_terms_denominator as f64)
    }

    /// Exact match accuracy (EMA). `None` when the denominator is 0 (the
    /// reference raises `ZeroDivisionError`).
    #[must_use]
    pub fn exact_accuracy(&self) -> Option<f64> {
        self.ratio(self.exact_correct)
    }

    /// Lemmatized match accuracy (LMA). `None` when the denominator is 0.
    #[must_use]
    pub fn lemmatized_accuracy(&self) -> Option<f64> {
        self.ratio(self.lemmatized_correct)
    }

    /// The reference's alignment assertion: stanza lemmatizes the
    /// `"\n"`-joined predictions, so a kept prediction with a newline between
    /// two non-blank lines yields two sentences. The reference then raises
    /// before matching anything.
    ///
    /// # Errors
    /// `AssertionError: Number of lemmatized predictions (S) should match
    /// number of predictions (P)` when the sums differ.
    pub fn check(&self) -> Result<(), MetricError> {
        if self.lemma_sentences == self.kept_predictions {
            Ok(())
        } else {
            Err(invalid(format!(
                "AssertionError: Number of lemmatized predictions ({}) should match number of predictions ({})",
                self.lemma_sentences, self.kept_predictions
            )))
        }
    }
}

/// One sentence of a corpus: prediction, its words, its terms.
#[derive(Debug, Clone, Copy)]
pub struct TermSentence<'a, T> {
    /// The prediction.
    pub prediction: &'a str,
    /// Its lemmatized words (ignored when the prediction is dropped).
    pub lemmas: &'a [Lemma<'a>],
    /// Its terms, each a list of alternatives.
    pub terms: &'a [T],
}

/// `get_match_accuracies` over whole sentences, in the reference's order of
/// checks. First the alignment assertion over the kept predictions
/// ([`TermAccuracy::check`]), then [`count_matches`] per sentence (its first
/// error is returned). The accuracies of the result are `None` where the
/// reference divides by zero.
///
/// # Errors
/// The alignment assertion, or the first sentence error.
pub fn corpus_counts<T: AsRef<[S]>, S: AsRef<str>>(
    sentences: &[TermSentence<'_, T>],
) -> Result<TermAccuracy, MetricError> {
    let mut acc = TermAccuracy::default();
    for s in sentences {
        if !py_strip(s.prediction).is_empty() {
            acc.kept_predictions += 1;
            acc.lemma_sentences += u64::from(stanza_sentences(s.prediction));
        }
    }
    acc.check()?;
    let mut acc = TermAccuracy::default();
    for s in sentences {
        acc.add(&count_matches(s.prediction, s.lemmas, s.terms)?);
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(terms: &[&[&str]]) -> Vec<Vec<String>> {
        terms.iter().map(|alts| alts.iter().map(|&a| a.to_owned()).collect()).collect()
    }

    fn exact(pred: &str, terms: &[&[&str]]) -> u32 {
        exact_matches(pred, &t(terms))
    }

    fn cats_lemmas() -> Vec<Lemma<'static>> {
        vec![Lemma::new(Some("the"), 0, 3), Lemma::new(Some("cat"), 4, 8), Lemma::new(Some("sit"), 9, 12)]
    }

    #[test]
    fn spec_search_examples() {
        assert_eq!(exact("a b", &[&["a"], &["a"], &["a"], &["b"]]), 4);
        assert_eq!(exact("New York City", &[&["new york"], &["york city"], &["city"]]), 3);
        assert_eq!(exact("New York", &[&["new york"], &["york"]]), 1);
        assert_eq!(exact("New York", &[&["new york"], &["York"], &["new"]]), 3);
        assert_eq!(exact("a b", &[&["a", "b"], &["a"]]), 2);
        assert_eq!(exact("a a", &[&["a", "b"], &["a"]]), 2);
        assert_eq!(exact("b b", &[&["a", "b"], &["a"]]), 1);
    }

    #[test]
    fn spec_boundary_examples() {
        assert_eq!(exact("xcat cat", &[&["cat"]]), 1);
        assert_eq!(exact("écat", &[&["cat"]]), 1);
        assert_eq!(exact("cat5", &[&["cat"]]), 0);
        assert_eq!(exact("aaa", &[&["aa"], &["a"]]), 0);
        assert_eq!(exact("the cat-like dog", &[&["cat"], &["like"]]), 2);
        assert_eq!(exact("a.b", &[&["a.b"], &["."]]), 1);
        assert_eq!(exact("C++ and c++", &[&["c++"], &["C++"]]), 2);
        assert_eq!(exact("", &[&[""]]), 1);
        assert_eq!(exact("the cat", &[&[], &["cat"]]), 1);
    }

    #[test]
    fn spec_lemmatized_examples() {
        let pred = "the cats sat";
        let terms = t(&[&["cat"], &["sit"], &["cats"]]);
        let c = count_matches(pred, &cats_lemmas(), &terms).unwrap();
        assert_eq!((c.exact, c.lemmatized, c.wrong()), (1, 3, 0));
        let terms = t(&[&["cats"], &["cat"]]);
        let c = count_matches(pred, &cats_lemmas(), &terms).unwrap();
        assert_eq!((c.exact, c.lemmatized, c.wrong()), (1, 1, 1));
        // Multi-word match in lemma space only.
        assert_eq!(lemmatized_matches(pred, &cats_lemmas(), &t(&[&["cat sit"]])).unwrap(), 1);
    }

    #[test]
    fn lemmatized_below_exact_is_raised() {
        let lemmas =
            [Lemma::new(Some("the"), 0, 3), Lemma::new(Some("cat-like"), 4, 12), Lemma::new(Some("dog"), 13, 16)];
        let terms = t(&[&["cat"], &["like"]]);
        assert_eq!(lemmatized_matches("the cat-like dog", &lemmas, &terms).unwrap(), 1);
        let c = count_matches("the cat-like dog", &lemmas, &terms).unwrap();
        assert_eq!((c.exact, c.lemmatized, c.wrong(), c.lemmatized_below_exact), (2, 2, 0, true));
    }

    #[test]
    fn dropped_and_empty() {
        let terms = t(&[&["a"], &["b"]]);
        let c = count_matches(" \t", &[], &terms).unwrap();
        assert!(c.dropped);
        assert_eq!((c.exact, c.lemmatized, c.wrong()), (0, 0, 2));
        assert!(lemmatized_matches("", &[], &terms).is_err());
        let none: Vec<Vec<String>> = Vec::new();
        let c = count_matches("a b  ", &[], &none).unwrap();
        assert_eq!((c.exact, c.total, c.dropped), (0, 0, false));
    }

    #[test]
    fn corpus_sums_and_denominator() {
        let lemmas = cats_lemmas();
        let terms = t(&[&["cat"], &["sit"], &["cats"]]);
        let empty: &[Lemma<'_>] = &[];
        let sentences = [
            TermSentence { prediction: "the cats sat", lemmas: &lemmas, terms: &terms },
            TermSentence { prediction: "  ", lemmas: empty, terms: &terms },
        ];
        let acc = corpus_counts(&sentences).unwrap();
        assert_eq!((acc.exact_correct, acc.lemmatized_correct, acc.wrong, acc.n_terms_denominator), (1, 3, 3, 3));
        assert_eq!(acc.exact_accuracy(), Some(1.0 / 3.0));
        assert_eq!(acc.lemmatized_accuracy(), Some(1.0));
        let mut merged = TermAccuracy::default();
        merged.merge(&acc);
        merged.merge(&acc);
        assert_eq!(merged.n_terms_denominator, 6);
        assert_eq!(TermAccuracy::default().exact_accuracy(), None);
    }

    #[test]
    fn corpus_newline_assertion() {
        let terms = t(&[&["a"]]);
        let lemmas = [Lemma::new(Some("a"), 0, 1), Lemma::new(Some("b"), 2, 3)];
        assert_eq!(stanza_sentences("a\nb"), 2);
        assert_eq!(stanza_sentences("a\n \n"), 1);
        let sentences = [TermSentence { prediction: "a\nb", lemmas: &lemmas, terms: &terms }];
        let e = corpus_counts(&sentences).unwrap_err();
        assert_eq!(
            e,
            invalid(
                "AssertionError: Number of lemmatized predictions (2) should match number of predictions (1)".into()
            )
        );
        // count_matches alone works.
        assert_eq!(count_matches("a\nb", &lemmas, &terms).unwrap().exact, 1);
    }
}
