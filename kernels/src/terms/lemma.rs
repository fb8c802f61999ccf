//! The lemma string and the word-level correspondence between it and the
//! prediction, built as `maximally_match_with_lemmatized` builds them (steps 1
//! to 3 of the reference), with its checks.
//!
//! * `lead` is the number of leading whitespace characters of the prediction
//!   (`len(pred) - len(pred.lstrip())`, so any Python whitespace counts).
//! * The "extra" runs are the maximal runs of two or more ASCII spaces that
//!   do not start at 0. Each is recorded as `(run_start + 1, run_len - 1)`.
//! * The lemma string is `lead` spaces, then every lemma followed by one space.
//!   A missing lemma is replaced by the slice `pred[start:end]` of the given
//!   offsets.
//! * Two cursors start at `lead`: one in the prediction (`po`) and one in the
//!   lemma string (`pl`). For each word, an unconsumed extra run that starts
//!   exactly at `po` is consumed: `po` moves by its length (at most one run per
//!   word). The word's prediction span is `[po, po + end - start)` and its
//!   lemma span is `[pl, pl + len(lemma))`. Then both cursors move past the
//!   word and one separator. Only `end - start` of the given offsets is used.
//! * Checks, in the reference's order: every extra run was consumed
//!   (`AssertionError`); there is at least one word (the reference divides by
//!   the word count for a log statistic: `ZeroDivisionError`); the prediction
//!   spans lie inside the prediction (filling the dense map raises
//!   `IndexError`); and blanking the prediction spans leaves only whitespace
//!   (`AssertionError`). The same check on the lemma string cannot fail, since
//!   the lemma spans cover every character except the separators.
//! * The dense maps give, for each prediction code point, the last word whose
//!   prediction span covers it, and for each lemma-string code point, its word.

use super::invalid;
use crate::MetricError;
use crate::py::re::Text;
use crate::py::text::is_py_space;

/// One lemmatized word of the prediction, as the reference receives it from
/// stanza (`pred_l["lemmatized_words"][i]`, `pred_l["indices"][i]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lemma<'a> {
    /// The lemma. `None` (stanza sometimes gives no lemma) stands for the
    /// surface slice `pred[start..end]`.
    pub lemma: Option<&'a str>,
    /// Start of the word, in code points (only `end - start` and the
    /// `None`-lemma slice use the offsets).
    pub start: usize,
    /// End of the word (exclusive), in code points.
    pub end: usize,
}

impl<'a> Lemma<'a> {
    /// A word with its lemma and `[start, end)` code-point span.
    #[must_use]
    pub const fn new(lemma: Option<&'a str>, start: usize, end: usize) -> Self {
        Self { lemma, start, end }
    }
}

/// A word's span in the prediction and in the lemma string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WordSpans {
    pub orig: (usize, usize),
    pub lem: (usize, usize),
}

/// The lemma string and the maps between it and the prediction.
#[derive(Debug, Clone)]
pub(crate) struct LemmaMap {
    /// The lemma string.
    pub lem: Text,
    /// Per word, its spans.
    pub words: Vec<WordSpans>,
    /// Per prediction code point, the word mapped to it (the last one written).
    pub to_lem: Vec<Option<usize>>,
    /// Per lemma-string code point, its word.
    pub to_orig: Vec<Option<usize>>,
}

/// Maximal runs of two or more ASCII spaces not starting at 0, as the
/// reference records them: `(run_start + 1, run_len - 1)`.
fn extra_space_runs(pred: &[char]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < pred.len() {
        if pred[i] == ' ' {
            let start = i;
            while i < pred.len() && pred[i] == ' ' {
                i += 1;
            }
            let len = i - start;
            if len >= 2 && start != 0 {
                runs.push((start + 1, len - 1));
            }
        } else {
            i += 1;
        }
    }
    runs
}

/// Python's `repr` of a list of int pairs: `[(4, 1), (9, 2)]`.
fn py_repr_pairs(pairs: &[(usize, usize)]) -> String {
    let items: Vec<String> = pairs.iter().map(|(a, b)| format!("({a}, {b})")).collect();
    format!("[{}]", items.join(", "))
}

/// Builds the mapping for `pred` (its code points) and its words.
pub(crate) fn build(pred: &[char], lemmas: &[Lemma<'_>]) -> Result<LemmaMap, MetricError> {
    let n = pred.len();
    let lead = pred.iter().take_while(|&&c| is_py_space(c)).count();
    let mut extra = extra_space_runs(pred);

    let mut lem: Vec<char> = vec![' '; lead];
    let mut words = Vec::with_capacity(lemmas.len());
    let (mut po, mut pl) = (lead, lead);
    for (k, w) in lemmas.iter().enumerate() {
        if w.end < w.start {
            return Err(invalid(format!("lemma {k}: end ({}) is before start ({})", w.end, w.start)));
        }
        let word_start = lem.len();
        if let Some(s) = w.lemma {
            lem.extend(s.chars());
        } else {
            // Python's pred[start:end]: both ends clamped to the string.
            let (s, e) = (w.start.min(n), w.end.min(n));
            lem.extend_from_slice(&pred[s..e.max(s)]);
        }
        let word_len = lem.len() - word_start;
        lem.push(' ');
        if let Some(i) = extra.iter().position(|&(at, _)| at == po) {
            po = po.saturating_add(extra[i].1);
            extra.remove(i);
        }
        let len = w.end - w.start;
        words.push(WordSpans { orig: (po, po.saturating_add(len)), lem: (pl, pl + word_len) });
        pl += word_len + 1;
        po = po.saturating_add(len).saturating_add(1);
    }

    if !extra.is_empty() {
        return Err(invalid(format!("AssertionError: Extra spaces should be empty: {}", py_repr_pairs(&extra))));
    }
    if lemmas.is_empty() {
        return Err(invalid("ZeroDivisionError: division by zero".to_owned()));
    }

    let mut to_lem = vec![None; n];
    let mut to_orig = vec![None; lem.len()];
    for (k, w) in words.iter().enumerate() {
        let (s, e) = w.orig;
        if e > s {
            if e > n {
                return Err(invalid("IndexError: list assignment index out of range".to_owned()));
            }
            to_lem[s..e].fill(Some(k));
        }
        to_orig[w.lem.0..w.lem.1].fill(Some(k));
    }

    // Every code point that no word covers must be whitespace.
    if to_lem.iter().zip(pred).any(|(m, &c)| m.is_none() && !is_py_space(c)) {
        let blanked: String = to_lem.iter().zip(pred).map(|(m, &c)| if m.is_some() { ' ' } else { c }).collect();
        let pred_s: String = pred.iter().collect();
        return Err(invalid(format!(
            "AssertionError: Mapping should have removed all characters: {blanked}\n for {pred_s}"
        )));
    }

    Ok(LemmaMap { lem: Text::new(lem), words, to_lem, to_orig })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn reason(e: MetricError) -> String {
        if let MetricError::InvalidInput { reason, .. } | MetricError::InvalidOption { reason, .. } = e {
            reason
        } else {
            e.to_string()
        }
    }

    #[test]
    fn extra_runs() {
        assert_eq!(extra_space_runs(&chars("  a  b   c ")), vec![(4, 1), (7, 2)]);
        assert_eq!(extra_space_runs(&chars("a \t  b")), vec![(4, 1)]);
        assert_eq!(py_repr_pairs(&[(4, 1), (8, 2)]), "[(4, 1), (8, 2)]");
    }

    #[test]
    fn spans_with_lead_and_double_space() {
        let pred = chars("  the  cats sat");
        let lemmas = [Lemma::new(Some("the"), 2, 5), Lemma::new(Some("cat"), 7, 11), Lemma::new(None, 12, 15)];
        let m = build(&pred, &lemmas).unwrap();
        let lem: String = m.lem.chars().iter().collect();
        assert_eq!(lem, "  the cat sat ");
        assert_eq!(m.words[0], WordSpans { orig: (2, 5), lem: (2, 5) });
        assert_eq!(m.words[1], WordSpans { orig: (7, 11), lem: (6, 9) });
        assert_eq!(m.words[2], WordSpans { orig: (12, 15), lem: (10, 13) });
        assert_eq!(m.to_lem[8], Some(1));
        assert_eq!(m.to_lem[6], None);
        assert_eq!(m.to_orig[6], Some(1));
    }

    #[test]
    fn reference_errors() {
        let e = build(&chars("a b  "), &[Lemma::new(Some("a"), 0, 1), Lemma::new(Some("b"), 2, 3)]).unwrap_err();
        assert_eq!(reason(e), "AssertionError: Extra spaces should be empty: [(4, 1)]");
        let e = build(&chars(""), &[]).unwrap_err();
        assert_eq!(reason(e), "ZeroDivisionError: division by zero");
        let e =
            build(&chars("the \tcats"), &[Lemma::new(Some("the"), 0, 3), Lemma::new(Some("cat"), 5, 9)]).unwrap_err();
        assert_eq!(reason(e), "AssertionError: Mapping should have removed all characters:         s\n for the \tcats");
        let e = build(&chars("ab"), &[Lemma::new(Some("ab"), 0, 3)]).unwrap_err();
        assert_eq!(reason(e), "IndexError: list assignment index out of range");
    }
}
