//! Extended grapheme clusters as the `regex` module's `\X` finds them
//! (`regex.findall(r"\X", s)`), which `BasicTextNormalizer(split_letters=True)`
//! uses: the rules of Unicode's UAX #29 (GB3 to GB999, with `GB9c`'s Indic
//! conjuncts as the module reads it) over the character properties of the pinned `regex` version
//! (`grapheme_tables`, generated from it).

use super::grapheme_tables::{EXT_PICT, GCB, INCB};
use crate::py::text::in_ranges;

/// `Grapheme_Cluster_Break` values, numbered as in [`GCB`].
const CR: u8 = 1;
const LF: u8 = 2;
const CONTROL: u8 = 3;
const EXTEND: u8 = 4;
const ZWJ: u8 = 5;
const REGIONAL_INDICATOR: u8 = 6;
const PREPEND: u8 = 7;
const SPACING_MARK: u8 = 8;
const L: u8 = 9;
const V: u8 = 10;
const T: u8 = 11;
const LV: u8 = 12;
const LVT: u8 = 13;
/// `Indic_Conjunct_Break` values, numbered as in [`INCB`].
const CONSONANT: u8 = 1;
const LINKER: u8 = 2;
const INCB_EXTEND: u8 = 3;

fn lookup(table: &[(u32, u32, u8)], c: char) -> u8 {
    let cp = u32::from(c);
    let i = table.partition_point(|&(_, hi, _)| hi < cp);
    table.get(i).filter(|&&(lo, _, _)| lo <= cp).map_or(0, |&(_, _, v)| v)
}

/// A character's properties: (`Grapheme_Cluster_Break`, `Indic_Conjunct_Break`,
/// `Extended_Pictographic`).
#[derive(Clone, Copy)]
struct Props {
    gcb: u8,
    incb: u8,
    pict: bool,
}

fn props(c: char) -> Props {
    if c.is_ascii() {
        let gcb = match c {
            '\r' => CR,
            '\n' => LF,
            c if c.is_ascii_control() => CONTROL,
            _ => 0,
        };
        return Props { gcb, incb: 0, pict: false };
    }
    Props { gcb: lookup(GCB, c), incb: lookup(INCB, c), pict: in_ranges(EXT_PICT, c) }
}

/// Whether a cluster boundary lies between `p[i - 1]` and `p[i]` (`0 < i <
/// p.len()`).
fn is_boundary(p: &[Props], i: usize) -> bool {
    let (left, right) = (p[i - 1], p[i]);
    let (l, r) = (left.gcb, right.gcb);
    // GB3, GB4, GB5
    if l == CR && r == LF {
        return false;
    }
    if matches!(l, CR | LF | CONTROL) || matches!(r, CR | LF | CONTROL) {
        return true;
    }
    // GB6, GB7, GB8: Hangul syllables
    if (l == L && matches!(r, L | V | LV | LVT)) || (matches!(l, LV | V) && matches!(r, V | T)) {
        return false;
    }
    if matches!(l, LVT | T) && r == T {
        return false;
    }
    // GB9, GB9a, GB9b
    if matches!(r, EXTEND | ZWJ | SPACING_MARK) || l == PREPEND {
        return false;
    }
    // GB9c as the regex module applies it: [Extend Linker]* Linker [Extend Linker]* × Consonant. Unicode's
    // rule also wants a Consonant before the run; the regex module does not look for it ("\u094d" + "क" is
    // one cluster there).
    if right.incb == CONSONANT {
        let mut k = i;
        let mut linked = false;
        while k > 0 && matches!(p[k - 1].incb, LINKER | INCB_EXTEND) {
            linked |= p[k - 1].incb == LINKER;
            k -= 1;
        }
        if linked {
            return false;
        }
    }
    // GB11: ExtPict Extend* ZWJ × ExtPict
    if l == ZWJ && right.pict {
        let mut k = i - 1;
        while k > 0 && p[k - 1].gcb == EXTEND {
            k -= 1;
        }
        if k > 0 && p[k - 1].pict {
            return false;
        }
    }
    // GB12, GB13: pairs of regional indicators
    if r == REGIONAL_INDICATOR {
        let run = p[..i].iter().rev().take_while(|x| x.gcb == REGIONAL_INDICATOR).count();
        if run % 2 == 1 {
            return false;
        }
    }
    true
}

/// `" ".join(regex.findall(r"\X", s))`.
#[must_use]
pub fn join_graphemes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let p: Vec<Props> = chars.iter().map(|&c| props(c)).collect();
    let mut out = String::with_capacity(s.len() * 2);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && is_boundary(&p, i) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: regex 2026.11.15's " ".join(regex.findall(r"\X", s)).

    #[test]
    fn clusters_as_the_regex_module() {
        assert_eq!(join_graphemes("ab"), "a b");
        assert_eq!(join_graphemes("a\u{301}b"), "a\u{301} b");
        assert_eq!(join_graphemes("\r\n\n"), "\r\n \n");
        assert_eq!(join_graphemes("🇺🇸🇫"), "🇺🇸 🇫");
        assert_eq!(join_graphemes("क्\u{200d}ष"), "क्\u{200d}ष");
        assert_eq!(join_graphemes("नमस्ते"), "न म स्ते");
        assert_eq!(join_graphemes("👩\u{200d}💻x"), "👩\u{200d}💻 x");
        assert_eq!(join_graphemes("한국어"), "한 국 어");
        assert_eq!(join_graphemes(""), "");
        assert_eq!(join_graphemes("a\u{94d}क"), "a\u{94d}क");
        assert_eq!(join_graphemes("क\u{93c}क"), "क\u{93c} क");
    }
}
