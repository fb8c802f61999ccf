#![allow(
    clippy::cast_possible_truncation,
    reason = "random lengths and symbols are reduced far below the target types' range"
)]

use super::metric::WER;
use super::*;
use crate::metric::Detail;
use crate::testutil::lcg;

#[path = "jiwer_cases.rs"]
mod jiwer_cases;

/// One row of a jiwer case: its chosen reference, counts `[H, S, D, I, N, P]`
/// and chunks.
pub(super) struct Row {
    pub hyp: &'static str,
    pub refs: &'static [&'static str],
    pub best: usize,
    pub counts: [u64; 6],
    pub chunks: &'static str,
}

/// A corpus as jiwer scores it (`scores`: wer, mer, wil, wip).
pub(super) struct Case {
    pub opts: &'static str,
    pub rows: &'static [Row],
    pub scores: [f64; 4],
    pub visual: &'static str,
}

fn chunk_text(chunks: &[AlignmentChunk]) -> String {
    chunks
        .iter()
        .map(|c| {
            let k = &c.kind.name()[..1].to_ascii_uppercase();
            format!("{k}{}:{}/{}:{}", c.ref_start, c.ref_end, c.hyp_start, c.hyp_end)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn counts_array(c: &WerCounts) -> [u64; 6] {
    [c.hits, c.substitutions, c.deletions, c.insertions, c.ref_len, c.hyp_len]
}

#[test]
fn jiwer_cases_are_reproduced_bit_for_bit() {
    let all = VisualizeOptions { skip_correct: false, ..VisualizeOptions::default() };
    for case in jiwer_cases::CASES {
        let cfg = WerConfig::parse(case.opts).unwrap();
        let mut total = WerCounts::default();
        let mut alignments = Vec::new();
        for row in case.rows {
            let a = cfg.alignment(row.hyp, row.refs).unwrap();
            let what = format!("{:?} {:?} {:?}", case.opts, row.hyp, row.refs);
            assert_eq!(a.ref_index, row.best, "{what}");
            assert_eq!(counts_array(&a.counts), row.counts, "{what}");
            assert_eq!(chunk_text(&a.chunks), row.chunks, "{what}");
            assert_eq!(cfg.best(row.hyp, row.refs), Some((row.best, a.counts)), "{what}");
            if row.refs.len() == 1 {
                assert_eq!(cfg.counts(row.hyp, row.refs[0]), a.counts, "{what}");
            }
            total.add(&a.counts);
            alignments.push(a);
        }
        let s = total.scores();
        assert_eq!([s.wer, s.mer, s.wil, s.wip], case.scores, "{:?} {:?}", case.opts, case.rows[0].hyp);
        assert_eq!(cfg.visualize(&alignments, all), case.visual, "{:?} {:?}", case.opts, case.rows[0].hyp);
    }
}

fn visual(cfg: &str, pairs: &[(&str, &str)], opts: VisualizeOptions) -> String {
    let cfg = WerConfig::parse(cfg).unwrap();
    let a: Vec<_> = pairs.iter().map(|(r, h)| cfg.alignment(h, &[r]).unwrap()).collect();
    cfg.visualize(&a, opts)
}

#[test]
fn visualize_alignment_matches_jiwer_s_own_tests() {
    // jiwer 4.0.0 tests/test_alignment.py (pairs are (reference, hypothesis)).
    let quiet = VisualizeOptions { show_measures: false, ..VisualizeOptions::default() };
    let words = |p: &[(&str, &str)], o| visual("", p, o);
    let chars = |p: &[(&str, &str)], o| visual("unit:char", p, o);
    assert_eq!(
        words(&[("this is a test of skill", "this was a messy test")], quiet),
        "=== SENTENCE 1 ===\n\nREF: this  is a ***** test of skill\nHYP: this was a messy test ** *****\n            S       \
         I       D     D\n"
    );
    assert_eq!(
        words(&[("this test will  have a high word error rate", "no it will not")], VisualizeOptions::default()),
        "=== SENTENCE 1 ===\n\nREF: this test will have a high word error rate\nHYP:   no   it will  not * **** **** \
         ***** ****\n        S    S         S D    D    D     D    D\n\n=== SUMMARY ===\nnumber of sentences: 1\n\
         substitutions=3 deletions=5 insertions=0 hits=1\n\nmer=88.89%\nwil=97.22%\nwip=2.78%\nwer=88.89%\n"
    );
    assert_eq!(
        words(&[("perfect", "perfect"), ("one", "1"), ("two", "2"), ("three", "three")], quiet),
        "=== SENTENCE 2 ===\n\nREF: one\nHYP:   1\n       S\n\n=== SENTENCE 3 ===\n\nREF: two\nHYP:   2\n       S\n"
    );
    assert_eq!(words(&[("", "")], quiet), "");
    assert_eq!(
        words(&[("", "inserted")], quiet),
        "=== SENTENCE 1 ===\n\nREF: ********\nHYP: inserted\n            I\n"
    );
    assert_eq!(
        words(
            &[("this sentence could be split", "this sentence will be split by ai")],
            VisualizeOptions { line_width: Some(30), ..quiet }
        ),
        "=== SENTENCE 1 ===\n\nREF: this sentence could be\nHYP: this sentence  will be\n                       S   \n\n\
         REF: split ** **\nHYP: split by ai\n            I  I\n"
    );
    assert_eq!(
        chars(&[("this is a test of skill", "this was a messy test")], quiet),
        "=== SENTENCE 1 ===\n\nREF: this *is a tes*t of skill\nHYP: this was a messy te*st***\n          IS    S  IS SSD \
         SDDD\n"
    );
    assert_eq!(
        chars(&[("this test will  have a high word error rate", "no it will not")], VisualizeOptions::default()),
        "=== SENTENCE 1 ===\n\nREF: this test will  have a high word error rate\nHYP: no** i**t will \
         n*************o***********t*\n     SSDD SDD       SDDDDDDDDDDDDD DDDDDDDDDDD D\n\n=== SUMMARY ===\n\
         number of sentences: 1\nsubstitutions=4 deletions=29 insertions=0 hits=10\n\ncer=76.74%\n"
    );
    assert_eq!(
        chars(&[("one", "1"), ("two", "2")], quiet),
        "=== SENTENCE 1 ===\n\nREF: one\nHYP: 1**\n     SDD\n\n=== SENTENCE 2 ===\n\nREF: two\nHYP: 2**\n     SDD\n"
    );
    assert_eq!(
        chars(
            &[("this sentence could be split", "this sentence will be split by ai")],
            VisualizeOptions { line_width: Some(30), ..quiet }
        ),
        "=== SENTENCE 1 ===\n\nREF: this sentence could be sp\nHYP: this sentence will* be sp\n                   SSS D      \
         \n\nREF: lit******\nHYP: lit by ai\n        IIIIII\n"
    );
    // The spec's example (process_characters("abc de", "abd  e")).
    assert_eq!(
        chars(&[("abc de", "abd  e")], VisualizeOptions::default()),
        "=== SENTENCE 1 ===\n\nREF: abc de\nHYP: abd  e\n       S S \n\n=== SUMMARY ===\nnumber of sentences: 1\n\
         substitutions=2 deletions=0 insertions=0 hits=4\n\ncer=33.33%\n"
    );
}

#[test]
fn options_parse_and_the_signature_pastes_back() {
    assert_eq!(WerConfig::parse("").unwrap(), WerConfig::default());
    let c = WerConfig::parse(" UNIT:Char | transform:standardize ").unwrap();
    assert_eq!((c.unit, c.transform), (Unit::Char, Transform::Standardize));
    let sig = WerConfig::default().signature(crate::NRefs::Fixed(1)).to_string();
    assert_eq!(sig, format!("nrefs:1|unit:word|transform:default|version:jiwer-4.0.0|impl:mteval-{IMPL_VERSION}"));
    assert_eq!(WerConfig::parse(&c.signature(crate::NRefs::Var).to_string()).unwrap(), c);
    let e = WerConfig::parse("colour:red").unwrap_err().to_string();
    assert!(e.contains("unit") && e.contains("transform") && e.contains("'colour'"), "{e}");
    assert!(WerConfig::parse("unit:letter").unwrap_err().to_string().contains("word or char"));
    assert!(WerConfig::parse("transform:lower").is_err());
    assert!(WerConfig::parse("unit:word|unit:char").is_err());
    // What the metric table's own tests check of every row.
    for k in OPTIONS {
        assert!(k.listed_values().count() > 0, "{}", k.key);
        for v in k.listed_values() {
            assert!(WER.configure(&format!("{}:{v}", k.key)).is_ok(), "{}:{v}", k.key);
        }
        assert!(WER.configure(&format!("{}:surely-not-a-value", k.key)).is_err());
    }
    let m = WER.configure("unit:char").unwrap();
    let again = WER.configure(&m.sql_options()).unwrap();
    assert_eq!(again.signature(crate::NRefs::Fixed(2)), m.signature(crate::NRefs::Fixed(2)));
}

#[test]
fn the_metric_interface_sums_counts() {
    let m = (WER.configure)("").unwrap();
    assert_eq!(m.info(), &WER);
    assert_eq!((m.display(), m.width()), ("WER".to_owned(), 6));
    assert_eq!(m.segment("a", &[]).unwrap(), None);
    // jiwer: process_words(["hello world", ""], ["hello world", "done"]).
    let rows = [("hello world", vec!["hello world"]), ("done", vec![""]), ("", vec![""])];
    let mut corpus = m.corpus().unwrap();
    assert_eq!(corpus.score(), None);
    let mut parts = [m.corpus().unwrap(), m.corpus().unwrap()];
    for (i, (h, r)) in rows.iter().enumerate() {
        let seg = m.segment(h, r).unwrap().unwrap();
        assert_eq!(seg.len(), 6);
        corpus.add(&seg);
        parts[i % 2].add(&seg);
    }
    assert_eq!(m.segment("done", &[""]).unwrap().unwrap(), vec![0.0, 0.0, 0.0, 1.0, 0.0, 1.0]);
    assert_eq!(m.sentence_score(&[0.0, 0.0, 0.0, 1.0, 0.0, 1.0]), Some(1.0));
    assert_eq!(m.sentence_score(&[1.0, 1.0, 0.0, 0.0, 2.0, 2.0]), Some(0.5));
    assert_eq!(corpus.segments(), 3);
    assert_eq!(corpus.score(), Some(0.5));
    let mut merged = parts[0].clone();
    merged.merge(parts[1].as_ref()).unwrap();
    assert_eq!(merged.score(), Some(0.5));
    assert_eq!(merged.segments(), 3);
    let d = corpus.details();
    let get = |k: &str| d.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap();
    // jiwer: mer 1/3, wil 1/3 (1 - 2/3), wip 2/3 = (2/2)·(2/3).
    assert_eq!(get("mer"), Detail::Float(1.0 / 3.0));
    assert_eq!(get("wip"), Detail::Float(1.0 * (2.0 / 3.0)));
    assert_eq!(get("wil"), Detail::Float(1.0 - 2.0 / 3.0));
    assert_eq!(get("hits"), Detail::Int(2));
    assert_eq!(get("insertions"), Detail::Int(1));
    assert_eq!((get("substitutions"), get("deletions")), (Detail::Int(0), Detail::Int(0)));
    let other = crate::charac_ter::metric::INFO.configure("").unwrap();
    assert!(corpus.merge(other.corpus().unwrap().as_ref()).is_err());
    // CER through unit:char; the best of several references.
    let cer = (WER.configure)("unit:char").unwrap();
    assert_eq!(cer.display(), "CER");
    let seg = cer.segment("abc", &["abx", "abc", "ab"]).unwrap().unwrap();
    assert_eq!(seg, vec![3.0, 0.0, 0.0, 0.0, 3.0, 3.0]);
    assert_eq!(cer.sentence_score(&seg), Some(0.0));
    assert!(m.sql_options().starts_with("nrefs:var|unit:word|transform:default|version:jiwer-4.0.0|impl:mteval-"));
    assert!(m.as_any().downcast_ref::<super::metric::Wer>().is_some());
}

#[test]
fn empty_reference_measures_follow_jiwer() {
    let c = |h, i, n, p| WerCounts { hits: h, substitutions: 0, deletions: 0, insertions: i, ref_len: n, hyp_len: p };
    let s = c(0, 0, 0, 0).scores();
    assert_eq!([s.wer, s.mer, s.wil, s.wip], [0.0, 0.0, 0.0, 1.0]);
    let s = c(0, 3, 0, 3).scores();
    assert_eq!([s.wer, s.mer, s.wil, s.wip], [3.0, 1.0, 1.0, 0.0]);
    // wip = (H/N)·(H/P), in that grouping.
    let s = c(3, 4, 7, 7).scores();
    assert_eq!(s.wip, (3.0 / 7.0) * (3.0 / 7.0));
    assert_eq!(WerCounts::from_stats(&[1.0]), WerCounts { hits: 1, ..WerCounts::default() });
}

/// The tokens of `s` as jiwer's presets produce them (checked against the
/// transforms directly, not through the alignment).
fn tokens(cfg: &str, s: &str) -> Vec<String> {
    let cfg = WerConfig::parse(cfg).unwrap();
    let p = cfg.prepare(s);
    let mut t = Vec::new();
    cfg.tokens(&p, &mut t);
    t.into_iter().map(str::to_owned).collect()
}

#[test]
fn transforms_follow_the_presets() {
    // Expected values: jiwer 4.0.0 on CPython 3.11.
    assert_eq!(tokens("", " a\u{1c}b  c\u{3000}\u{3000}d\te "), ["a\u{1c}b", "c", "d\te"]);
    assert_eq!(tokens("transform:standardize", "I'M [x] Won't\tΣΑΣ"), ["i", "am", "will", "not", "σας"]);
    assert_eq!(tokens("unit:char", " a  b\t"), ["a", " ", " ", "b"]);
    assert_eq!(tokens("unit:char|transform:standardize", " A  <b> C\t"), ["a", " ", "c"]);
    assert_eq!(tokens("unit:char", "e\u{301}"), ["e", "\u{301}"]);
}

#[test]
fn counts_are_consistent_on_any_input() {
    // Random strings over words, odd whitespace and astral characters: the
    // counts add up, the errors are the Levenshtein distance of the tokens,
    // the chunks tile both sides, and nothing panics.
    let pieces = [
        "a", "b", "ab", " ", "  ", "\t", "\u{a0}", "\u{1c}", "\u{3000}", "\n", "'s", "n't", "[", "]", "<", ">", "Σ",
        "İ", "👍", "*", "X",
    ];
    let mut next = lcg(3);
    let text = |next: &mut dyn FnMut(u64) -> u64| {
        (0..next(30)).map(|_| pieces[next(pieces.len() as u64) as usize]).collect::<String>()
    };
    for k in 0..3000 {
        let opts = ["", "unit:char", "transform:standardize", "unit:char|transform:standardize"][k % 4];
        let cfg = WerConfig::parse(opts).unwrap();
        let hyp = text(&mut next);
        let refs: Vec<String> = (0..=next(2)).map(|_| text(&mut next)).collect();
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let a = cfg.alignment(&hyp, &refs).unwrap();
        let c = a.counts;
        assert_eq!(c.hits + c.substitutions + c.deletions, c.ref_len);
        assert_eq!(c.hits + c.substitutions + c.insertions, c.hyp_len);
        assert_eq!((c.ref_len as usize, c.hyp_len as usize), (a.reference.len(), a.hypothesis.len()));
        let dists: Vec<usize> =
            refs.iter().map(|r| crate::levenshtein::reference_distance(&tokens(opts, r), &a.hypothesis)).collect();
        assert_eq!(c.errors() as usize, dists[a.ref_index]);
        assert_eq!(dists.iter().position(|d| d == dists.iter().min().unwrap()), Some(a.ref_index));
        let (mut i, mut j) = (0, 0);
        for ch in &a.chunks {
            assert_eq!((ch.ref_start, ch.hyp_start), (i, j));
            (i, j) = (ch.ref_end, ch.hyp_end);
            if ch.kind == ChunkKind::Equal {
                assert_eq!(a.reference[ch.ref_start..ch.ref_end], a.hypothesis[ch.hyp_start..ch.hyp_end]);
            }
        }
        assert_eq!((i, j), (a.reference.len(), a.hypothesis.len()));
        assert!(c.wer().is_finite() && !cfg.visualize(&[a], VisualizeOptions::default()).is_empty());
    }
}

#[test]
fn long_inputs_take_rapidfuzz_s_hirschberg_path() {
    // 2,200 words a side (past the 4M-cell threshold) and a 70 × 60,000
    // pair: equal to jiwer on the same inputs (scripts/diff_wer.py checks
    // many more); here the counts must add up and equal the distance.
    let mut next = lcg(9);
    let words = |n: usize, v: u64, next: &mut dyn FnMut(u64) -> u64| {
        (0..n).map(|_| format!("w{}", next(v))).collect::<Vec<_>>().join(" ")
    };
    let cfg = WerConfig::default();
    for (n, m) in [(2200, 2200), (70, 60_000)] {
        let r = words(n, 3, &mut next);
        let h = words(m, 3, &mut next);
        let c = cfg.counts(&h, &r);
        let rt: Vec<&str> = r.split(' ').collect();
        let ht: Vec<&str> = h.split(' ').collect();
        assert_eq!(c.errors() as usize, crate::levenshtein::word_distance(&rt, &ht));
        assert_eq!((c.ref_len, c.hyp_len), (n as u64, m as u64));
    }
}

#[test]
fn each_measure_is_a_row_of_the_metric_table() {
    use super::metric::{CHAR_ERROR_RATE, MER, WIL, WIP};
    use crate::metric::{Direction, lookup};
    // jiwer: process_words("a b c d", "a x c d e"): H 3, S 1, D 0, I 1.
    let stats = [3.0, 1.0, 0.0, 1.0, 4.0, 5.0];
    let want = [
        (&WER, "WER", 2.0 / 4.0, Direction::Lower),
        (&MER, "MER", 2.0 / 5.0, Direction::Lower),
        (&WIL, "WIL", 1.0 - (3.0 / 4.0) * (3.0 / 5.0), Direction::Lower),
        (&WIP, "WIP", (3.0 / 4.0) * (3.0 / 5.0), Direction::Higher),
    ];
    for (info, display, score, dir) in want {
        let m = info.configure("").unwrap();
        assert_eq!(m.display(), display);
        assert_eq!(info.direction, dir);
        assert_eq!(m.segment("a x c d e", &["a b c d"]).unwrap().unwrap(), stats.to_vec());
        assert_eq!(m.sentence_score(&stats), Some(score), "{display}");
        let mut c = m.corpus().unwrap();
        c.add(&stats);
        assert_eq!(c.score(), Some(score), "{display}");
        let r = m.resample().unwrap();
        assert_eq!(r.score(&stats), score);
        let f32s = stats.map(|x| x as f32);
        assert_eq!(r.score_f32(&f32s).value(), score_f32_reference(display, &f32s), "{display}");
    }
    let cer = lookup("jiwer_cer").unwrap().configure("").unwrap();
    assert_eq!((cer.info(), cer.display().as_str()), (&CHAR_ERROR_RATE, "CER"));
    assert_eq!(cer.segment("abd", &["abc"]).unwrap().unwrap(), vec![2.0, 1.0, 0.0, 0.0, 3.0, 3.0]);
    assert!(cer.signature(crate::NRefs::Fixed(1)).to_string().contains("unit:char"));
    // `cer` stays CharacTER (the `cer` package's metric).
    assert_eq!(lookup("cer").unwrap().name, "charac_ter");
}

/// numpy 2 on float32 sums, spelled out: `float(S+D+I) / float(H+S+D)` in
/// doubles, `(float(H) / N) * (float(H) / P)` and `1 - wip` in float32
/// (checked with numpy 2.4.6).
fn score_f32_reference(measure: &str, s: &[f32; 6]) -> f64 {
    let [h, sb, d, i, n, p] = *s;
    let wip = (f64::from(h) as f32 / n) * (f64::from(h) as f32 / p);
    match measure {
        "WER" => f64::from(sb + d + i) / f64::from(h + sb + d),
        "MER" => f64::from(sb + d + i) / f64::from(h + sb + d + i),
        "WIP" => f64::from(wip),
        // `1 - wip` stays a float32 (numpy 2: 0.54999995 here, not 0.55).
        _ => f64::from(1.0 - wip),
    }
}

#[test]
fn empty_references_in_float32_follow_jiwer() {
    use super::metric::{MER, WIP};
    let r = |info: &'static crate::metric::MetricInfo, s: [f32; 6]| {
        let m = info.configure("").unwrap();
        m.resample().unwrap().score_f32(&s)
    };
    let silence = [0.0, 0.0, 0.0, 2.0, 0.0, 2.0];
    assert_eq!(r(&WER, silence), crate::py::Py::F32(2.0));
    assert_eq!(r(&MER, silence).value(), 1.0);
    assert_eq!(r(&WIP, silence).value(), 0.0);
    assert_eq!(r(&WIP, [0.0; 6]).value(), 1.0);
}

#[test]
fn alignment_lines_are_visualize_alignments_sentence_block() {
    // jiwer.visualize_alignment(process_words("a b c d", "a x c d e"),
    // show_measures=False, skip_correct=False), header dropped.
    let lines = |opts: &str, h: &str, r: &str| {
        let c = WerConfig::parse(opts).unwrap();
        c.alignment_lines(&c.alignment(h, &[r]).unwrap())
    };
    assert_eq!(lines("", "a x c d e", "a b c d"), "REF: a b c d *\nHYP: a x c d e\n       S     I");
    assert_eq!(lines("unit:char", "axcde", "abcd"), "REF: abcd*\nHYP: axcde\n      S  I");
    assert_eq!(lines("", "the cat", "the cat"), "REF: the cat\nHYP: the cat\n            ");
}
