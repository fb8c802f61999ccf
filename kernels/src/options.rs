//! The option keys of each metric, as data: what the parsers accept (their
//! "unknown key" errors list these keys) and what the SQL guide's option
//! tables show (the application generates them from here).

/// One option key of a metric.
#[derive(Debug, Clone, Copy)]
pub struct OptionKey {
    /// The key, as written in options and signatures.
    pub key: &'static str,
    /// Its values, default first, in Markdown: each value a parser accepts
    /// is written in backticks (a test parses every one of them).
    pub values: &'static str,
    /// What it sets, and the reference tool's name for it.
    pub what: &'static str,
    /// Accepted by the corpus function only (e.g. `corpus_charac_ter`'s
    /// `scores`), not by the sentence-level ones.
    pub corpus_only: bool,
}

impl OptionKey {
    /// A key accepted by every function of its metric.
    #[must_use]
    pub const fn new(key: &'static str, values: &'static str, what: &'static str) -> Self {
        Self { key, values, what, corpus_only: false }
    }

    /// The values written in backticks, without those that are a
    /// `key:value` example.
    pub fn listed_values(&self) -> impl Iterator<Item = &'static str> {
        self.values.split('`').skip(1).step_by(2).filter(|v| !v.contains(':'))
    }
}

/// Keys of a printed signature that every parser accepts and ignores, so a
/// signature pastes back as options.
pub const SIGNATURE_KEYS: &str = "nrefs, version, impl";

/// The keys a sentence-level parser accepts, for its "unknown key" error:
/// `keys`, then `extra` (the signature's own keys and any a caller adds).
#[must_use]
pub fn known_keys(groups: &[&[OptionKey]], extra: &str) -> String {
    let mut names: Vec<&str> = groups.iter().flat_map(|g| g.iter()).filter(|k| !k.corpus_only).map(|k| k.key).collect();
    if !extra.is_empty() {
        names.push(extra);
    }
    names.join(", ")
}

/// The error for an unknown key: names it and every key the parser takes
/// (`groups`, then `extra`, see [`known_keys`]).
#[must_use]
pub fn unknown_key(metric: &'static str, key: &str, groups: &[&[OptionKey]], extra: &str) -> crate::MetricError {
    crate::MetricError::InvalidOption {
        metric,
        reason: format!("unknown key '{key}' (known: {})", known_keys(groups, extra)),
    }
}

/// The last arm of a sentence-level option parser: a key of a printed
/// signature ([`SIGNATURE_KEYS`]) is accepted and ignored, so that a
/// signature pastes back as options; any other key is unknown.
///
/// # Errors
/// An unknown key, listing `groups`' keys and the signature's.
pub fn other_key(metric: &'static str, key: &str, groups: &[&[OptionKey]]) -> Result<(), crate::MetricError> {
    match key {
        "nrefs" | "version" | "impl" => Ok(()),
        _ => Err(unknown_key(metric, key, groups, SIGNATURE_KEYS)),
    }
}
