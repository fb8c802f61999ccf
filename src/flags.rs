//! Settings described once for every front end: a closed set of named
//! values ([`Named`]: an output format, a meta-evaluation level) and a
//! table of flags ([`Flag`]: `mteval meta`'s), which the command line turns
//! into its arguments and help, and the Python module fills from keyword
//! arguments. The library itself parses no command line.

/// A value out of a closed set, each with its name (as the command line
/// and the Python module spell it) and a line of help.
pub trait Named: Sized + Copy + PartialEq + 'static {
    /// Every value, its name and its help, in the order help lists them.
    const NAMES: &'static [(Self, &'static str, &'static str)];

    /// The value called `name`.
    #[must_use]
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES.iter().find(|(_, n, _)| *n == name).map(|(v, _, _)| *v)
    }

    /// This value's name.
    #[must_use]
    fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(v, _, _)| *v == self).map_or("", |(_, n, _)| n)
    }

    /// The value called `name`, or an error naming `what` (a flag) and the
    /// choices.
    ///
    /// # Errors
    /// A name outside the set.
    fn parse_named(name: &str, what: &str) -> anyhow::Result<Self> {
        Self::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Self::NAMES.iter().map(|(_, n, _)| *n).collect();
            anyhow::anyhow!("{what}: '{name}' is not one of {}", names.join(", "))
        })
    }
}

/// How a [`Flag`] takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagKind {
    /// The positional argument.
    Positional,
    /// `--name VALUE`, once.
    Value,
    /// `--name VALUE`, repeatable: each one adds a value.
    Repeat,
    /// `--name`, on or off.
    Switch,
}

/// One setting of a request, as a command line names it.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// The long name (`mtme-test-set` for `--mtme-test-set`); the
    /// positional argument's name.
    pub name: &'static str,
    /// The one-letter form (`-k`, `-m`).
    pub short: Option<char>,
    /// How it takes its value.
    pub kind: FlagKind,
    /// The value's placeholder in help (default: the name in capitals).
    pub value_name: Option<&'static str>,
    /// The value when the flag is not given.
    pub default: Option<&'static str>,
    /// The values it takes, with their help (empty: any).
    pub choices: &'static [(&'static str, &'static str)],
    /// Its help.
    pub help: &'static str,
}

impl Flag {
    /// A `--name VALUE` flag taking any value.
    #[must_use]
    pub const fn value(name: &'static str, help: &'static str) -> Self {
        Flag { name, short: None, kind: FlagKind::Value, value_name: None, default: None, choices: &[], help }
    }

    /// This flag of another kind.
    #[must_use]
    pub const fn kind(self, kind: FlagKind) -> Self {
        Flag { kind, ..self }
    }

    /// This flag with a one-letter form.
    #[must_use]
    pub const fn short(self, c: char) -> Self {
        Flag { short: Some(c), ..self }
    }

    /// This flag with a default.
    #[must_use]
    pub const fn default(self, d: &'static str) -> Self {
        Flag { default: Some(d), ..self }
    }

    /// This flag with a placeholder for its value.
    #[must_use]
    pub const fn value_name(self, v: &'static str) -> Self {
        Flag { value_name: Some(v), ..self }
    }

    /// This flag taking only `choices`.
    #[must_use]
    pub const fn choices(self, choices: &'static [(&'static str, &'static str)]) -> Self {
        Flag { choices, ..self }
    }

    /// How a message names it: `--name`, `-k`, or the positional's name.
    #[must_use]
    pub fn spelled(&self) -> String {
        match (self.kind, self.short) {
            (FlagKind::Positional, _) => self.name.to_owned(),
            (_, Some(c)) if self.name.len() == 1 => format!("-{c}"),
            _ => format!("--{}", self.name),
        }
    }
}

/// The (name, help) pairs of a [`Named`] table of `N` values.
#[must_use]
pub const fn names_of<const N: usize>(
    t: &'static [(impl Copy + 'static, &'static str, &'static str)],
) -> [(&'static str, &'static str); N] {
    let mut out = [("", ""); N];
    let mut i = 0;
    while i < N {
        out[i] = (t[i].1, t[i].2);
        i += 1;
    }
    out
}

/// `value` as a number for the flag `what`.
///
/// # Errors
/// Not a number of that type.
pub fn parse_number<T: std::str::FromStr>(value: &str, what: &str) -> anyhow::Result<T> {
    value.trim().parse().map_err(|_| anyhow::anyhow!("{what}: '{value}' is not a valid {}", number_word::<T>()))
}

fn number_word<T>() -> &'static str {
    match std::any::type_name::<T>() {
        "f64" | "f32" => "number",
        _ => "whole number (0 or more)",
    }
}
