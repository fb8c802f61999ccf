//! `unicodedata.normalize` of `CPython` 3.11: the four Unicode normalization
//! forms over Unicode 14.0's data (`normalization14`, generated from that
//! Python), so that text normalised here is byte for byte what the Python
//! reference tools produce, characters added to Unicode since included
//! (they have no decomposition there and stay as they are).
//!
//! The algorithm is UAX #15's: full decomposition (canonical, or
//! compatibility for the K forms; Hangul syllables by arithmetic), canonical
//! ordering of each run of non-starters by combining class (stable), and for
//! the C forms canonical composition, where a character combines with the
//! last starter unless a character between them blocks it.

use super::normalization14::{COMBINING_CLASSES, COMPOSITIONS, DECOMPOSITIONS};

/// A normalization form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Canonical decomposition.
    Nfd,
    /// Compatibility decomposition.
    Nfkd,
    /// Canonical decomposition, then canonical composition.
    Nfc,
    /// Compatibility decomposition, then canonical composition.
    Nfkc,
}

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// The canonical combining class of `c` (`unicodedata.combining`).
#[must_use]
pub fn combining_class(c: char) -> u8 {
    let cp = u32::from(c);
    if cp < 0x300 {
        return 0;
    }
    let i = COMBINING_CLASSES.partition_point(|&(_, hi, _)| hi < cp);
    COMBINING_CLASSES.get(i).filter(|&&(lo, _, _)| lo <= cp).map_or(0, |&(_, _, v)| v)
}

/// Appends the full decomposition of `c` to `out`.
fn decompose_char(c: char, compat: bool, out: &mut Vec<char>) {
    let cp = u32::from(c);
    if cp < 0xA0 {
        out.push(c);
        return;
    }
    if (S_BASE..S_BASE + S_COUNT).contains(&cp) {
        let s = cp - S_BASE;
        let to = |x: u32| char::from_u32(x).unwrap_or(c);
        out.push(to(L_BASE + s / N_COUNT));
        out.push(to(V_BASE + (s % N_COUNT) / T_COUNT));
        if !s.is_multiple_of(T_COUNT) {
            out.push(to(T_BASE + s % T_COUNT));
        }
        return;
    }
    match DECOMPOSITIONS.binary_search_by_key(&cp, |&(k, _, _)| k) {
        Ok(i) => {
            let (_, canonical, compatibility) = DECOMPOSITIONS[i];
            let d = if compat { compatibility } else { canonical };
            if d.is_empty() { out.push(c) } else { out.extend(d.chars()) }
        }
        Err(_) => out.push(c),
    }
}

/// The canonical composite of `a` followed by `b`, if any.
fn compose_pair(a: char, b: char) -> Option<char> {
    let (a, b) = (u32::from(a), u32::from(b));
    if (L_BASE..L_BASE + L_COUNT).contains(&a) && (V_BASE..V_BASE + V_COUNT).contains(&b) {
        return char::from_u32(S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT);
    }
    if (S_BASE..S_BASE + S_COUNT).contains(&a)
        && (a - S_BASE).is_multiple_of(T_COUNT)
        && (T_BASE + 1..T_BASE + T_COUNT).contains(&b)
    {
        return char::from_u32(a + (b - T_BASE));
    }
    COMPOSITIONS.binary_search_by_key(&(a, b), |&(x, y, _)| (x, y)).ok().and_then(|i| char::from_u32(COMPOSITIONS[i].2))
}

/// The characters normalisation may change or combine, one bit each: those
/// with a decomposition (canonical only, or compatibility too), a non-zero
/// combining class, or a place as the second of a composition (Hangul
/// vowels and trailing consonants included). Any other character is a
/// boundary: nothing before it interacts with it or with what follows.
///
/// For the composed forms (NFC, NFKC) a character whose normal form is
/// itself (a precomposed letter such as `ä`, a Hangul syllable) is a
/// boundary as well, as long as it does not combine with what comes before
/// it (quick-check Yes, class 0): a following mark that composes with it is
/// unstable and joins its segment.
struct Unstable {
    canonical: Vec<u64>,
    compatibility: Vec<u64>,
    composed_canonical: Vec<u64>,
    composed_compatibility: Vec<u64>,
}

fn unstable() -> &'static Unstable {
    static TABLES: std::sync::OnceLock<Unstable> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let words = (0x11_0000 / 64) + 1;
        let mut t = Unstable {
            canonical: vec![0; words],
            compatibility: vec![0; words],
            composed_canonical: vec![0; words],
            composed_compatibility: vec![0; words],
        };
        let set = |bits: &mut Vec<u64>, cp: u32| bits[(cp / 64) as usize] |= 1 << (cp % 64);
        // What every form treats as unstable: marks, second halves of compositions, Hangul vowels and trailing
        // consonants.
        let mut common = Vec::new();
        for &(lo, hi, _) in COMBINING_CLASSES {
            common.extend(lo..=hi);
        }
        common.extend(COMPOSITIONS.iter().map(|&(_, second, _)| second));
        common.extend((V_BASE..V_BASE + V_COUNT).chain(T_BASE + 1..T_BASE + T_COUNT));
        for &cp in &common {
            for bits in
                [&mut t.canonical, &mut t.compatibility, &mut t.composed_canonical, &mut t.composed_compatibility]
            {
                set(bits, cp);
            }
        }
        (S_BASE..S_BASE + S_COUNT).for_each(|cp| {
            set(&mut t.canonical, cp);
            set(&mut t.compatibility, cp);
        });
        for &(cp, canonical, _) in DECOMPOSITIONS {
            set(&mut t.compatibility, cp);
            if !canonical.is_empty() {
                set(&mut t.canonical, cp);
            }
            let Some(c) = char::from_u32(cp) else { continue };
            let one = c.to_string();
            if normalize_segment(Form::Nfc, &one) != one {
                set(&mut t.composed_canonical, cp);
            }
            if normalize_segment(Form::Nfkc, &one) != one {
                set(&mut t.composed_compatibility, cp);
            }
        }
        t
    })
}

/// `unicodedata.normalize(form, s)`.
#[must_use]
pub fn normalize(form: Form, s: &str) -> String {
    normalize_cow(form, s).into_owned()
}

/// [`normalize`], borrowing `s` when it is already in the form (no
/// character normalisation could change).
#[must_use]
pub fn normalize_cow(form: Form, s: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    let t = unstable();
    let bits = match form {
        Form::Nfd => &t.canonical,
        Form::Nfkd => &t.compatibility,
        Form::Nfc => &t.composed_canonical,
        Form::Nfkc => &t.composed_compatibility,
    };
    let is_unstable = |c: char| {
        let cp = u32::from(c);
        cp >= 0xA0 && bits[(cp / 64) as usize] & (1 << (cp % 64)) != 0
    };
    if !s.chars().any(is_unstable) {
        return Cow::Borrowed(s);
    }
    // Segments that start at a stable character: each is normalised on its
    // own, and one with no unstable character is copied.
    let mut out = String::with_capacity(s.len());
    let (mut start, mut touched) = (0, false);
    for (i, c) in s.char_indices() {
        if is_unstable(c) {
            touched = true;
        } else if i > start {
            if touched {
                out.push_str(&normalize_segment(form, &s[start..i]));
            } else {
                out.push_str(&s[start..i]);
            }
            start = i;
            touched = false;
        }
    }
    if touched {
        out.push_str(&normalize_segment(form, &s[start..]));
    } else {
        out.push_str(&s[start..]);
    }
    Cow::Owned(out)
}

/// UAX #15 on one segment: decomposition, canonical ordering, composition.
fn normalize_segment(form: Form, s: &str) -> String {
    let compat = matches!(form, Form::Nfkd | Form::Nfkc);
    let mut chars = Vec::with_capacity(s.len());
    for c in s.chars() {
        decompose_char(c, compat, &mut chars);
    }
    // Canonical ordering: each run of non-starters sorted by class (stable).
    let mut i = 0;
    while i < chars.len() {
        if combining_class(chars[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && combining_class(chars[i]) != 0 {
            i += 1;
        }
        chars[start..i].sort_by_key(|&c| combining_class(c));
    }
    if matches!(form, Form::Nfd | Form::Nfkd) {
        return chars.into_iter().collect();
    }
    compose(&chars)
}

/// Canonical composition of a decomposed, canonically ordered sequence.
fn compose(chars: &[char]) -> String {
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    // The last starter's index in `out`, and the class of the last
    // character after it (`None`: none yet, the next one is adjacent).
    let mut starter: Option<usize> = None;
    let mut last_class: Option<u8> = None;
    for &c in chars {
        let class = combining_class(c);
        if let Some(si) = starter {
            let blocked = last_class.is_some_and(|l| l == 0 || l >= class);
            if !blocked && let Some(k) = compose_pair(out[si], c) {
                out[si] = k;
                continue;
            }
        }
        if class == 0 {
            starter = Some(out.len());
            last_class = None;
        } else {
            last_class = Some(class);
        }
        out.push(c);
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: unicodedata.normalize of CPython 3.11; every code
    // point is compared with Python by python/tests/test_whisper.py.

    #[test]
    fn the_four_forms() {
        assert_eq!(normalize(Form::Nfd, "é"), "e\u{301}");
        assert_eq!(normalize(Form::Nfc, "e\u{301}"), "é");
        assert_eq!(normalize(Form::Nfkd, "ﬁ½"), "fi1\u{2044}2");
        assert_eq!(normalize(Form::Nfkc, "ｶﾞ"), "ガ");
        assert_eq!(normalize(Form::Nfc, "\u{1E0A}\u{323}"), "\u{1E0C}\u{307}");
        assert_eq!(normalize(Form::Nfc, "a\u{323}\u{302}"), "\u{1EAD}");
        assert_eq!(normalize(Form::Nfd, "한"), "\u{1112}\u{1161}\u{11AB}");
        assert_eq!(normalize(Form::Nfc, "\u{1112}\u{1161}\u{11AB}"), "한");
        assert_eq!(normalize(Form::Nfkc, "Å"), "Å");
        assert_eq!(normalize(Form::Nfc, "\u{0B47}\u{0B3E}"), "\u{0B4B}");
        // Added after Unicode 14.0: unchanged, as in CPython 3.11.
        assert_eq!(normalize(Form::Nfkc, "\u{1E030}"), "\u{1E030}");
    }
}
