//! Sentence TER (sacrebleu algorithm and the seed's greedy one), alignments
//! and corpus sums.
//!
//! Input: byte 0 picks the options (bit 0 case:mixed, bit 1 norm:yes, bit 2
//! punct:no, bit 3 asian:yes, bit 4 algo:seed, bit 5 max_words:8); the rest is lossy UTF-8
//! split on '\n': the hypothesis, then 0 to 3 references. With no reference
//! the hypothesis is also scored against itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::{cap_words, fields, in_range, text};
use mteval_kernels::ter::{TerAlgo, TerStats};
use mteval_kernels::tokenize::TercomTokenizer;
use mteval_kernels::{NRefs, Ter, TerConfig};

/// Word caps after tokenization (normalisation can split one word into many).
const MAX_WORDS: usize = 200;
/// The seed algorithm tries every block, destination and full DP per round.
const MAX_WORDS_SEED: usize = 20;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let algo = if flags & 16 != 0 { TerAlgo::Seed } else { TerAlgo::Sacrebleu };
    let config = TerConfig {
        tokenizer: TercomTokenizer {
            case_sensitive: flags & 1 != 0,
            normalized: flags & 2 != 0,
            no_punct: flags & 4 != 0,
            asian_support: flags & 8 != 0,
        },
        algo,
        // Bit 5: a small length limit (over it, segments are errors).
        max_words: (flags & 32 != 0).then_some(8),
    };
    let ter = Ter { config };
    // The options survive their own signature (the limit is not part of it).
    let back = TerConfig::parse(&config.signature(NRefs::Fixed(1)).to_string());
    assert_eq!(back, Ok(TerConfig { max_words: None, ..config }));

    let s = text(rest, 4000);
    let max_words = if algo == TerAlgo::Seed { MAX_WORDS_SEED } else { MAX_WORDS };
    let parts: Vec<&str> = fields(&s, '\n', 4, 1000).into_iter().map(|f| cap_words(f, max_words)).collect();
    let hyp = parts[0];
    let mut refs: Vec<&str> = parts[1..].to_vec();
    assert_eq!(ter.segment(hyp, &[]), Ok(None));
    assert!(matches!(ter.alignment(hyp, &[]), Ok(None)));
    if refs.is_empty() {
        refs.push(hyp);
    }

    let hw = ter.tokenize(hyp);
    let rws: Vec<Vec<String>> = refs.iter().map(|r| ter.tokenize_reference(r)).collect();
    if hw.len() > max_words || rws.iter().any(|r| r.len() > max_words) {
        return;
    }

    let seg = ter.segment(hyp, &refs);
    if let Some(limit) = config.max_words {
        let over = hw.len() > limit || rws.iter().any(|r| r.len() > limit);
        assert_eq!(seg.is_err() && over, over, "length limit {limit} not enforced: {seg:?}");
        if over {
            return;
        }
    }
    if algo == TerAlgo::Seed && rws.iter().any(Vec::is_empty) {
        assert!(seg.is_err(), "seed TER accepted an empty reference");
        return;
    }
    let seg = seg.expect("segment failed").expect("no segment with references");
    assert_eq!(ter.segment_words(&hw, &rws).as_ref(), Ok(&seg));

    let n_refs = refs.len();
    assert!(seg.best_ref < n_refs);
    assert!(seg.num_shifts <= seg.num_edits);
    let sum_len: usize = rws.iter().map(Vec::len).sum();
    assert_eq!(seg.ref_len, sum_len as f64 / n_refs as f64);
    let max_ref = rws.iter().map(Vec::len).max().unwrap_or(0);
    assert!(
        seg.num_edits as usize <= hw.len() + max_ref,
        "{} edits for {} hypothesis words and references of at most {} words",
        seg.num_edits,
        hw.len(),
        max_ref
    );
    if rws.iter().any(|r| *r == hw) {
        assert_eq!(seg.num_edits, 0, "identical words but edits for {hyp:?}");
    }
    let score = ter.sentence_score(&seg);
    assert!(score.is_finite() && score >= 0.0, "score {score}");

    if algo == TerAlgo::Sacrebleu {
        let a = ter.alignment(hyp, &refs).expect("alignment failed").expect("no alignment");
        // The shifted hypothesis is a permutation of the hypothesis.
        let mut shifted: Vec<&str> = a.shifted_hyp.split(' ').filter(|w| !w.is_empty()).collect();
        let mut orig: Vec<&str> = hw.iter().map(String::as_str).collect();
        shifted.sort_unstable();
        orig.sort_unstable();
        assert_eq!(shifted, orig);
        // The trace consumes every hypothesis word and every word of the best
        // reference, and its non-matches are the edits that are not shifts.
        let ops: Vec<&str> = a.ops.split(' ').filter(|o| !o.is_empty()).collect();
        let label = |o: &&str| o.trim_start_matches('>').to_owned();
        assert!(!ops.iter().any(|o| label(o) == "?"), "undefined op in trace {:?}", a.ops);
        let hyp_ops = ops.iter().filter(|o| matches!(label(o).as_str(), "=" | "S" | "I")).count();
        let ref_ops = ops.iter().filter(|o| matches!(label(o).as_str(), "=" | "S" | "D")).count();
        let errors = ops.iter().filter(|o| label(o) != "=").count();
        assert_eq!(hyp_ops, hw.len(), "trace {:?}", a.ops);
        assert_eq!(ref_ops, rws[seg.best_ref].len(), "trace {:?}", a.ops);
        assert_eq!(errors as u32, seg.num_edits - seg.num_shifts, "trace {:?}", a.ops);
    }

    // Corpus sums: every (hypothesis, references) pair above, twice.
    let hyps = [hyp, hyp];
    let corpus_refs = [refs.clone(), refs.clone()];
    let st = ter.corpus(&hyps, &corpus_refs).expect("corpus failed");
    let mut want = TerStats::from(&seg);
    want.add(&seg);
    assert_eq!(st, want);
    let mut merged = TerStats::default();
    merged.merge(&st);
    assert_eq!(merged, st);
    let corpus_score = ter.score(&st);
    assert!(in_range(corpus_score, f64::MAX, 0.0));
    assert_eq!(corpus_score, score, "corpus of one segment twice != its sentence score");
});
