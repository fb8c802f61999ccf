//! Errors of the kernels crate. Scoring itself is infallible once a
//! configuration has been validated; errors come from bad options and from
//! inputs a reference implementation also rejects.

/// An error raised by a metric configuration or input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetricError {
    /// An option string or value that cannot be used.
    #[error("invalid {metric} option: {reason}")]
    InvalidOption {
        /// Metric whose options were being parsed.
        metric: &'static str,
        /// What is wrong, naming the offending key or value.
        reason: String,
    },
    /// A metric name that is not in the metric table.
    #[error("unknown metric '{name}' (known: {known})")]
    UnknownMetric {
        /// The name given.
        name: String,
        /// Every accepted name.
        known: String,
    },
    /// The name of an MBR utility ([`crate::metrics::UTILITIES`]) where a
    /// metric of rows was asked for.
    #[error(
        "{name} is an MBR utility (it ranks candidates), not a per-row score: use `mteval mbr --utility` or its SQL \
         window function"
    )]
    Utility {
        /// The utility's name.
        name: &'static str,
        /// Its SQL window functions.
        functions: &'static [&'static str],
    },
    /// A name that two metrics go by in the tools mteval replaces.
    #[error("metric name '{name}' is ambiguous: {meaning}")]
    AmbiguousMetric {
        /// The name given.
        name: String,
        /// The metrics it may mean, and how to name each.
        meaning: &'static str,
    },
    /// An input the reference implementation rejects too (for example an
    /// empty reference in the seed-style TER).
    #[error("invalid input for {metric}: {reason}")]
    InvalidInput {
        /// Metric being computed.
        metric: &'static str,
        /// What is wrong.
        reason: String,
    },
}
