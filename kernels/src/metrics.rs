//! The metric table: every metric's row ([`METRICS`]), above the metrics
//! and the interface they implement (`crate::metric`), the MBR utilities'
//! own small table ([`UTILITIES`]), and the lookups by name over them.
//! Adding a metric is one line here (and its module in `lib.rs`).

use std::sync::Arc;

use crate::MetricError;
use crate::metric::mbr::{MeanUtility, Utility, UtilityInfo};
use crate::metric::{Inputs, MetricInfo, not_text};
use crate::{NRefs, Signature};

/// Every metric, in the SQL guide's order.
pub static METRICS: &[&MetricInfo] = &[
    &crate::bleu::metric::INFO,
    &crate::ter::metric::INFO,
    &crate::chrf::metric::CHRF,
    &crate::chrf::metric::CHRF_PLUS_PLUS,
    &crate::charac_ter::metric::INFO,
    &crate::eed::metric::INFO,
    &crate::wer::metric::WER,
    &crate::wer::metric::MER,
    &crate::wer::metric::WIL,
    &crate::wer::metric::WIP,
    &crate::wer::metric::CHAR_ERROR_RATE,
    &crate::terms::metric::EXACT,
    &crate::terms::metric::LEMMATIZED,
];

/// Every MBR utility built for MBR or named for it (`mteval mbr --utility`,
/// the SQL window functions); any text metric of [`METRICS`] is one too, as
/// the mean of its sentence scores.
pub static UTILITIES: &[&UtilityInfo] =
    &[&crate::chrf::group::PAIRWISE, &crate::chrf::group::AGGREGATE, &crate::ter::mbr::INFO];

/// Every accepted name, canonical names first, each with its aliases.
#[must_use]
pub fn known_names() -> String {
    METRICS
        .iter()
        .map(
            |m| {
                if m.aliases.is_empty() { m.name.to_owned() } else { format!("{} ({})", m.name, m.aliases.join(", ")) }
            },
        )
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names that mean two metrics to the people who use them, refused rather
/// than guessed: "CER" is jiwer's character error rate to a speech user and
/// `CharacTER` to a user of the `cer` package.
const AMBIGUOUS: &[(&str, &str)] = &[(
    "cer",
    "did you mean char_error_rate (jiwer's CER: character edit operations over reference characters)? The `cer` \
     package's metric is CharacTER: charac_ter (or characTER). Name one of them",
)];

/// The metric named `name` (canonical or alias, any case, surrounding
/// spaces ignored).
///
/// # Errors
/// [`MetricError::UnknownMetric`] listing every name;
/// [`MetricError::AmbiguousMetric`] for a name of two metrics (`cer`);
/// [`MetricError::Utility`] for the name of a row of [`UTILITIES`].
pub fn lookup(name: &str) -> Result<&'static MetricInfo, MetricError> {
    let n = name.trim();
    if let Some(&(_, meaning)) = AMBIGUOUS.iter().find(|(a, _)| a.eq_ignore_ascii_case(n)) {
        return Err(MetricError::AmbiguousMetric { name: n.to_owned(), meaning });
    }
    if let Some(u) = UTILITIES.iter().find(|u| u.name.eq_ignore_ascii_case(n)) {
        return Err(MetricError::Utility { name: u.name, functions: u.functions });
    }
    METRICS
        .iter()
        .copied()
        .find(|m| m.name.eq_ignore_ascii_case(n) || m.aliases.iter().any(|a| a.eq_ignore_ascii_case(n)))
        .ok_or_else(|| MetricError::UnknownMetric { name: n.to_owned(), known: known_names() })
}

/// The row of [`UTILITIES`] named `name` exactly (any case), as the
/// metric names of [`lookup`] are.
#[must_use]
pub fn utility_row(name: &str) -> Option<&'static UtilityInfo> {
    UTILITIES.iter().copied().find(|u| u.name.eq_ignore_ascii_case(name.trim()))
}

/// The signature of the metric or MBR utility named `name` with
/// `options` (`mteval_signature`); a utility's has no `nrefs`.
///
/// # Errors
/// An unknown name, bad options.
pub fn signature(name: &str, options: &str, nrefs: NRefs) -> Result<Signature, MetricError> {
    match utility_row(name) {
        Some(u) => Ok(u.configure(options)?.signature()),
        None => Ok(lookup(name)?.configure(options)?.signature(nrefs)),
    }
}

/// The metrics sacrebleu's significance tests take (those with a
/// [`Metric::resample`] view), in the table's order.
pub fn resampled() -> impl Iterator<Item = &'static MetricInfo> {
    METRICS.iter().copied().filter(|m| m.configure("").is_ok_and(|c| c.stats().is_some()))
}

/// Names as a list in words: `a, b and c`.
#[must_use]
pub fn in_words(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The utility named `name` with `options` (signature syntax): a row of
/// [`UTILITIES`], named with or without its `mbr_` prefix (`-` may stand
/// for `_`), else the [`MeanUtility`] of a text metric (`wer`, `bleu`, ...).
///
/// # Errors
/// An unknown name, a metric that does not read text, bad options.
pub fn utility(name: &str, options: &str) -> Result<Arc<dyn Utility>, MetricError> {
    if let Some(row) = UTILITIES.iter().find(|u| u.is_named(name)) {
        return row.configure(options);
    }
    let wanted = name.trim().replace('-', "_");
    match lookup(name).or_else(|_| lookup(&wanted)) {
        Ok(of) if of.inputs == Inputs::Text => Ok(Arc::new(MeanUtility::configure(of, options)?)),
        Ok(of) => Err(crate::metric::mbr::invalid(format!("{} cannot be an MBR utility: {}", of.name, not_text(of)))),
        Err(_) => {
            let rows: Vec<&str> = UTILITIES.iter().filter_map(|m| m.name.strip_prefix("mbr_")).collect();
            let text: Vec<&str> = METRICS.iter().filter(|m| m.inputs == Inputs::Text).map(|m| m.name).collect();
            Err(crate::metric::mbr::invalid(format!(
                "unknown utility '{}' (known: {}, or the mean sentence score of a text metric: {})",
                name.trim(),
                rows.join(", "),
                text.join(", ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::NRefs;

    #[test]
    fn widths_sentence_and_corpus_scores_come_from_the_score_from_statistics() {
        let rows = [("the cat sat on a mat", "a cat sat on the mat"), ("x y z", "x z")];
        for info in METRICS.iter().filter(|i| i.inputs == crate::metric::Inputs::Text) {
            let m = info.configure("").unwrap();
            let segs: Vec<Vec<f64>> = rows.iter().map(|(h, r)| m.segment(h, &[r]).unwrap().unwrap()).collect();
            assert_eq!(segs[0].len(), m.width(), "{}", info.name);
            let sentence = m.sentence_score(&segs[0]).unwrap();
            // CharacTER alone has no score from summed statistics.
            assert_eq!(m.stats().is_none(), info.name == "charac_ter", "{}", info.name);
            let Some(f) = m.stats() else { continue };
            assert_eq!(f.width(), m.width(), "{}", info.name);
            // BLEU's sentence score alone differs (effective order).
            if info.name != "bleu" {
                assert_eq!(sentence, f.score(&segs[0]), "{}", info.name);
            }
            // The corpus state is the rows summed, scored by the one formula.
            let mut corpus = m.corpus().unwrap();
            let mut sums = vec![0.0; m.width()];
            for s in &segs {
                corpus.add(s);
                sums.iter_mut().zip(s).for_each(|(a, b)| *a += b);
            }
            assert_eq!(corpus.score(), Some(f.score(&sums)), "{}", info.name);
            assert_eq!(corpus.details(), f.details(&sums), "{}", info.name);
        }
    }

    #[test]
    fn optional_faces_belong_to_their_metrics_only() {
        // TER alone aligns words: its face is its own tokenizer and alignment.
        for info in METRICS.iter().filter(|i| i.column.is_some()) {
            let Ok(m) = info.configure("") else { continue };
            assert_eq!(m.align().is_some(), info.name == "ter", "{}", info.name);
            assert!(m.score_column().is_none(), "{}", info.name);
        }
        let ter = lookup("ter").unwrap().configure("case:mixed").unwrap();
        let align = ter.align().unwrap();
        assert_eq!(align.words("Hello, World!"), ["Hello,", "World!"]);
        let a = align.alignment("b a c", &["a b c", "x"]).unwrap().unwrap();
        assert_eq!((a.shifted_hyp.as_str(), a.reference.as_str()), ("a b c", "a b c"));
        assert!(align.alignment("a", &[]).unwrap().is_none());
        let score = crate::metric::segment_score::SegmentScore::new("comet");
        assert_eq!(crate::metric::Metric::score_column(&score), Some("comet"));
    }

    #[test]
    fn every_name_resolves_to_its_row_and_names_are_unique() {
        let mut seen = HashSet::new();
        for &m in METRICS {
            for n in std::iter::once(&m.name).chain(m.aliases) {
                assert!(seen.insert(n.to_ascii_lowercase()), "{n} twice");
                assert_eq!(lookup(n).unwrap(), m);
                assert_eq!(lookup(&n.to_ascii_uppercase()).unwrap(), m);
            }
            // The canonical options parse, the metric knows its row, and the
            // signature pastes back.
            let c = m.configure("").unwrap();
            assert_eq!(c.info(), m);
            assert_eq!(c.display(), m.display, "{}", m.name);
            let again = m.configure(&c.sql_options()).unwrap();
            assert_eq!(again.signature(NRefs::Fixed(2)), c.signature(NRefs::Fixed(2)), "{}", m.name);
            assert!(c.corpus().is_some(), "{}", m.name);
        }
        let e = lookup("bleurt").unwrap_err().to_string();
        assert!(e.contains("unknown metric 'bleurt'") && e.contains("charac_ter (characTER)"), "{e}");
        let e = lookup("CER").unwrap_err().to_string();
        assert!(e.contains("'CER' is ambiguous: did you mean char_error_rate (jiwer's CER"), "{e}");
        assert!(e.contains("charac_ter (or characTER)"), "{e}");
        assert_eq!(lookup("chrF++").unwrap().configure("").unwrap().display(), "chrF2++");
        assert_eq!(lookup("chrf").unwrap().configure("nc:4|beta:1").unwrap().display(), "chrF1");
        assert_eq!(lookup("wer").unwrap().configure("unit:char").unwrap().display(), "CER");
        assert!(lookup("term-acc").unwrap().configure("x:y").is_err());
    }

    #[test]
    fn utilities_are_a_table_of_their_own() {
        for &u in UTILITIES {
            // Not a metric of rows: named apart, and refused where one is asked for.
            assert!(METRICS.iter().all(|m| !m.name.eq_ignore_ascii_case(u.name) && !m.aliases.contains(&u.name)));
            let e = lookup(&u.name.to_ascii_uppercase()).unwrap_err();
            assert_eq!(e, MetricError::Utility { name: u.name, functions: u.functions });
            assert!(e.to_string().starts_with(&format!("{} is an MBR utility", u.name)), "{e}");
            assert!(!known_names().contains(u.name), "{}", u.name);
            // Named with or without `mbr_`; the signature pastes back; the options table is its own.
            let short = u.name.strip_prefix("mbr_").unwrap().replace('_', "-");
            let sig = utility(&short, "self:no").unwrap().signature();
            assert_eq!(utility(u.name, &sig.to_string()).unwrap().signature(), sig, "{}", u.name);
            assert_eq!(signature(u.name, "self:no", NRefs::Fixed(3)).unwrap(), sig, "{}", u.name);
            assert_eq!(utility_row(&u.name.to_ascii_uppercase()), Some(u));
            assert!(u.options.iter().flat_map(|g| g.iter()).any(|k| k.key == "self"), "{}", u.name);
            let e = utility(u.name, "colour:red").unwrap_err().to_string();
            assert!(e.contains("unknown key 'colour'"), "{e}");
        }
        assert_eq!(utility_row("chrf"), None, "a text metric's name is not a row of the utility table");
        let ter = signature("ter", "", NRefs::Fixed(2)).unwrap().to_string();
        assert!(ter.starts_with("nrefs:2|case:lc|"), "{ter}");
    }

    #[test]
    fn corpus_states_merge_in_any_grouping() {
        let rows = [("the cat sat on the mat", "the cat is on the mat"), ("a b c d", "a c b d"), ("x y", "x y z")];
        for m in METRICS.iter().filter(|m| m.inputs == Inputs::Text) {
            let c = m.configure("").unwrap();
            let mut whole = c.corpus().unwrap();
            let mut parts = [c.corpus().unwrap(), c.corpus().unwrap()];
            for (i, (h, r)) in rows.iter().enumerate() {
                let seg = c.segment(h, &[r]).unwrap().unwrap();
                assert_eq!(seg.len(), c.width(), "{}", m.name);
                assert!(c.sentence_score(&seg).is_some_and(f64::is_finite), "{}", m.name);
                whole.add(&seg);
                parts[i % 2].add(&seg);
            }
            let mut merged = parts[0].clone();
            merged.merge(parts[1].as_ref()).unwrap();
            // The same through the numbers an engine moves between partitions.
            let mut moved = parts[0].clone();
            let (values, n) = parts[1].to_state();
            moved.add_state(&values, n);
            assert_eq!(moved.score(), merged.score(), "{}", m.name);
            assert_eq!(moved.details(), merged.details(), "{}", m.name);
            assert_eq!(merged.segments(), 3, "{}", m.name);
            let (a, b) = (whole.score().unwrap(), merged.score().unwrap());
            assert!((a - b).abs() < 1e-9, "{}: {a} vs {b}", m.name);
            assert_eq!(c.corpus().unwrap().score(), None, "{}: no segment, no score", m.name);
            assert_eq!(c.segment("a", &[]).unwrap(), None, "{}: no reference, no statistics", m.name);
        }
        let ter = lookup("ter").unwrap().configure("").unwrap();
        let cer = lookup("charac_ter").unwrap().configure("").unwrap();
        assert!(ter.corpus().unwrap().merge(cer.corpus().unwrap().as_ref()).is_err());
        let terms = lookup("term-acc").unwrap().configure("").unwrap();
        assert!(terms.segment("a", &["a"]).unwrap_err().to_string().contains("term list"));
    }

    #[test]
    fn every_documented_option_value_parses_and_unknown_keys_name_the_documented_ones() {
        for &m in METRICS {
            for k in m.options.iter().flat_map(|g| g.iter()) {
                let mut n = 0;
                for v in k.listed_values() {
                    let opts = format!("{}:{v}", k.key);
                    let parsed = if k.corpus_only {
                        crate::CharacTerConfig::parse_corpus(&opts).map(drop)
                    } else {
                        m.configure(&opts).map(drop)
                    };
                    assert!(parsed.is_ok(), "{}: {opts}: {parsed:?}", m.name);
                    n += 1;
                }
                assert!(n > 0, "{}: {} lists no value", m.name, k.key);
                if !k.corpus_only {
                    assert!(m.configure(&format!("{}:surely-not-a-value", k.key)).is_err(), "{}", k.key);
                }
            }
            if m.options.is_empty() {
                continue;
            }
            let e = m.configure("colour:red").unwrap_err().to_string();
            for k in m.options.iter().flat_map(|g| g.iter()).filter(|k| !k.corpus_only) {
                assert!(e.contains(k.key), "{}: {e} does not name {}", m.name, k.key);
            }
        }
    }
}
