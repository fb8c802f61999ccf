//! Unit tests of the significance tests. Test code only: `mod.rs` declares
//! this module as `#[cfg(test)] mod tests;`, so its unwraps (and exact casts
//! of small counts) never reach the library.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
use super::*;
use crate::{BleuConfig, ChrfConfig, Ter};

fn stats_of<M: FromStats>(m: &M, rows: &[Vec<f64>]) -> SegmentStats {
    let mut s = SegmentStats::new(m.width());
    for r in rows {
        s.push(r);
    }
    s
}

fn bleu_rows(cfg: &BleuConfig, hyps: &[&str], refs: &[&str]) -> SegmentStats {
    let rows: Vec<Vec<f64>> =
        hyps.iter().zip(refs).map(|(h, r)| cfg.segment(h, &[r]).unwrap().iter().map(|&x| x as f64).collect()).collect();
    stats_of(cfg, &rows)
}

#[test]
fn signature_keys_follow_sacrebleu() {
    assert_eq!(PairedTest::Bootstrap(1000).signature_keys(Some(12345)), "bs:1000|seed:12345");
    assert_eq!(PairedTest::Randomization(10000, None).signature_keys(None), "ar:10000|seed:none");
    assert_eq!(PairedTest::Randomization(500, Some(100)).signature_keys(Some(1)), "bs:100|ar:500|seed:1");
    assert_eq!(
        with_test_keys("nrefs:1|case:mixed|version:2.6.0", "bs:1000|seed:12345"),
        "nrefs:1|bs:1000|seed:12345|case:mixed|version:2.6.0"
    );
    assert_eq!(parse_seed(" None ").unwrap(), None);
    assert_eq!(parse_seed("42").unwrap(), Some(42));
    assert!(parse_seed("-1").is_err() && parse_seed("x").is_err());
    assert_eq!(parse_seed("340282366920938463463374607431768211455").unwrap(), Some(u128::MAX));
    let big = parse_seed("340282366920938463463374607431768211456").unwrap_err().to_string();
    assert!(big.contains("over the largest seed") && big.contains("2^128 - 1"), "{big}");
    assert!(parse_seed("1.5").unwrap_err().to_string().contains("an integer from 0 to 2^128 - 1"));
}

#[test]
fn a_system_against_itself_is_never_beaten_by_chance() {
    // sacrebleu counts strictly larger differences: identical systems give
    // c = 0 and p = 1 / (n + 1) under both tests (its `(c + 1) / (n + 1)`).
    let cfg = BleuConfig::default();
    let hyps = ["the cat sat on the mat", "a dog barked", "hello there world", "one two three four"];
    let refs = ["the cat sat on a mat", "the dog barked", "hello world", "one two three five"];
    let s = bleu_rows(&cfg, &hyps, &refs);
    let metrics: [&dyn FromStats; 1] = [&cfg];
    for test in [PairedTest::Bootstrap(200), PairedTest::Randomization(300, None)] {
        let r = paired(&metrics, std::slice::from_ref(&s), std::slice::from_ref(&s), test, Some(7)).unwrap();
        let n = match test {
            PairedTest::Bootstrap(n) | PairedTest::Randomization(n, _) => n,
        };
        assert_eq!(r[0].p_value, Some(1.0 / (n + 1) as f64));
        assert_eq!(r[0].score, cfg.score(&s.sums().iter().map(|&x| x as u64).collect::<Vec<_>>()));
    }
}

#[test]
fn float32_scores_match_the_double_formulas_on_exact_values() {
    // On sums whose float32 arithmetic is exact, the float32 paths agree
    // with the double ones.
    let ter = Ter::default();
    assert_eq!(ter.score_f32(&[3.0, 4.0]).value(), 75.0);
    assert!(ter.score_f32(&[3.0, 4.0]).is_f32());
    assert_eq!(ter.score_f32(&[0.0, 0.0]), Py::Float(0.0));
    assert_eq!(ter.score_f32(&[2.0, 0.0]), Py::Float(100.0));
    let chrf = ChrfConfig::default();
    let mut st = vec![0.0f32; chrf.stats_len()];
    for o in 0..chrf.orders() {
        st[3 * o] = 4.0;
        st[3 * o + 1] = 4.0;
        st[3 * o + 2] = 2.0;
    }
    assert_eq!(chrf.score_f32(&st), Py::F32(50.0));
    assert_eq!(chrf.score_f32(&vec![0.0; chrf.stats_len()]), Py::Float(0.0));
    let bleu = BleuConfig::default();
    let v = [4.0f32, 4.0, 4.0, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0];
    let wide: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
    assert_eq!(bleu.score_f32(&v), Py::Float(FromStats::score(&bleu, &wide)));
}

#[test]
fn confidence_interval_brackets_the_resample_mean() {
    let cfg = ChrfConfig::default();
    let hyps = ["the cat sat on the mat", "a dog barked", "hello there world", "one two three four", "x y z"];
    let refs = ["the cat sat on a mat", "the dog barked", "hello world", "one two three five", "x y"];
    let rows: Vec<Vec<f64>> = hyps
        .iter()
        .zip(refs)
        .map(|(h, r)| cfg.segment(h, &[r]).unwrap().stats.iter().map(|&x| x as f64).collect())
        .collect();
    let s = stats_of(&cfg, &rows);
    let r = confidence(&cfg, &s, 400, Some(12345)).unwrap();
    let e = r.estimate.unwrap();
    assert!(e.ci > 0.0 && e.mean > 0.0 && (e.mean - r.score).abs() < 3.0 * e.ci, "{r:?}");
    // The same seed gives the same interval; another seed another one.
    assert_eq!(confidence(&cfg, &s, 400, Some(12345)).unwrap(), r);
    assert_ne!(confidence(&cfg, &s, 400, Some(1)).unwrap(), r);
}

#[test]
fn bootstrap_all_equals_compare_and_each_paired_test() {
    // Four systems of 60 segments, BLEU / chrF / TER statistics of real
    // segments with words dropped differently per system.
    let (bleu, chrf, ter) = (BleuConfig::default(), ChrfConfig::default(), Ter::default());
    let words = ["the", "cat", "sat", "on", "a", "mat", "while", "dogs", "barked", "loudly", "at", "night"];
    let refs: Vec<String> = (0..60)
        .map(|i| words.iter().cycle().skip(i % 7).take(5 + i % 6).copied().collect::<Vec<_>>().join(" "))
        .collect();
    let systems: Vec<Vec<SegmentStats>> = (0..4)
        .map(|s| {
            let hyps: Vec<String> = refs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    r.split(' ')
                        .enumerate()
                        .filter(|(w, _)| (w + i * s) % (s + 3) != 0)
                        .map(|x| x.1)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let rows =
                |f: &dyn Fn(&str, &str) -> Vec<f64>| hyps.iter().zip(&refs).map(|(h, r)| f(h, r)).collect::<Vec<_>>();
            vec![
                stats_of(&bleu, &rows(&|h, r| bleu.segment(h, &[r]).unwrap().iter().map(|&x| x as f64).collect())),
                stats_of(
                    &chrf,
                    &rows(&|h, r| chrf.segment(h, &[r]).unwrap().stats.iter().map(|&x| x as f64).collect()),
                ),
                stats_of(
                    &ter,
                    &rows(&|h, r| {
                        let t = ter.segment(h, &[r]).unwrap().unwrap();
                        vec![f64::from(t.num_edits), t.ref_len]
                    }),
                ),
            ]
        })
        .collect();
    let metrics: [&dyn FromStats; 3] = [&bleu, &chrf, &ter];
    for seed in [Some(12345), None] {
        let (results, p) = bootstrap_all(&metrics, &systems, 300, seed.or(Some(99))).unwrap();
        let want = compare(&metrics, &systems, PairedTest::Bootstrap(300), seed.or(Some(99))).unwrap();
        assert_eq!(results, want);
        for i in 0..4 {
            for j in 0..4 {
                if i == j {
                    assert!(p[i][j].iter().all(Option::is_none));
                    continue;
                }
                let r =
                    paired(&metrics, &systems[i], &systems[j], PairedTest::Bootstrap(300), seed.or(Some(99))).unwrap();
                assert_eq!(p[i][j], r.iter().map(|t| t.p_value).collect::<Vec<_>>(), "{i} {j}");
            }
        }
    }
    assert!(bootstrap_all(&metrics, &systems, 10, Some(0)).is_err());
}

#[test]
fn progress_hook_counts_every_segment_draw() {
    use std::sync::{Arc, Mutex};
    // Tests run side by side: count only the draws of this test's thread.
    let me = std::thread::current().id();
    let seen = Arc::new(Mutex::new(0u64));
    let hook_seen = seen.clone();
    set_progress(Some(Arc::new(move |d| {
        if std::thread::current().id() == me {
            *hook_seen.lock().unwrap() += d;
        }
    })));
    let cfg = BleuConfig::default();
    let hyps: Vec<String> = (0..57).map(|i| format!("the cat {i} sat on the mat")).collect();
    let refs: Vec<String> = (0..57).map(|i| format!("the cat {} sat on a mat", i % 7)).collect();
    let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let r: Vec<&str> = refs.iter().map(String::as_str).collect();
    let s = bleu_rows(&cfg, &h, &r);
    let metrics: [&dyn FromStats; 1] = [&cfg];
    let take = || std::mem::take(&mut *seen.lock().unwrap());
    confidence(&cfg, &s, 300, Some(1)).unwrap();
    assert_eq!(take(), 300 * 57, "one bootstrap: resamples x segments");
    paired(&metrics, std::slice::from_ref(&s), std::slice::from_ref(&s), PairedTest::Bootstrap(200), Some(1)).unwrap();
    assert_eq!(take(), 200 * 57, "a paired bootstrap draws once for both systems");
    paired(
        &metrics,
        std::slice::from_ref(&s),
        std::slice::from_ref(&s),
        PairedTest::Randomization(150, Some(40)),
        Some(1),
    )
    .unwrap();
    assert_eq!(take(), 150 * 57 + 40 * 57, "trials x segments, then the interval's resamples");
    // Over 2^22 draws, in several chunks that add up.
    confidence(&cfg, &s, 80_000, Some(1)).unwrap();
    assert_eq!(take(), 80_000 * 57);
    set_progress(None);
    confidence(&cfg, &s, 10, Some(1)).unwrap();
    assert_eq!(take(), 0, "cleared");
}

/// Segment scores as the README's `[score, 1]` metric (`SegmentScore`).
fn score_stats(values: &[f64]) -> SegmentStats {
    let mut s = SegmentStats::new(2);
    for &v in values {
        s.push(&crate::metric::segment_score::stats(v));
    }
    s
}

#[test]
fn randomization_on_few_float_scores_sums_as_numpy_and_ties_the_all_swapped_trial() {
    // sacrebleu 2.6.0's PairedTest(test_type='ar', n_samples=10000) with
    // SACREBLEU_SEED=12345 over the README's [score, 1] metric (the
    // ScoreColumn class of scripts/make_significance_golden.py), numpy
    // 2.4.6; the tables are numpy's default_rng(2026) draws:
    //   ps = PairedTest([("base", hb), ("sys", hs)], {"comet": ScoreColumn("comet",
    //        {id(hb): base, id(hs): sys})}, references=None, test_type="ar", n_samples=10000)
    //   _, scores = ps(); p = scores["comet"][1].p_value
    // With 2 to 5 segments, a trial that swaps every segment (or none) is
    // common; its difference equals the real one exactly in sacrebleu's
    // arithmetic, so it never counts (issue 56, item 6).
    #[rustfmt::skip]
    let cases: &[(&[f64], &[f64], f64)] = &[
        (&[0.956, 0.948], &[0.057, 0.085], 9.999000099990002e-05),
        (&[0.9198501605372782, 0.6358708041446514], &[0.7527320970790866, 0.5151536963223518], 9.999000099990002e-05),
        (&[0.947, 0.563], &[0.433, 0.9], 0.49975002499750026),
        (&[0.012857887744930352, 0.6043157467736379, 0.4914833323409261],
         &[0.6013821213404011, 0.5640238638655345, 0.89045910829968], 0.24777522247775222),
        (&[0.9172632996428407, 0.23326320620013874, 0.5993159922695809, 0.8142430618716505, 0.13476145162112996],
         &[0.615508274358867, 0.40283347552957394, 0.7660363414662829, 0.06771436062054059, 0.6068143810342034],
         0.8135186481351865),
        (&[0.08390938896269085, 0.5547696198165065, 0.23169822139230722, 0.5160825876377318, 0.659569533072841],
         &[0.8811861793495235, 0.35506101458853867, 0.31867896643874516, 0.313666741563808, 0.11784964452439528],
         0.938006199380062),
        (&[0.8894983573045284, 0.2157905760841189, 0.6501660583206906, 0.7173945053263936],
         &[0.8422279297235258, 0.34378554600189437, 0.6887947057130477, 0.6044006058026058], 0.8747125287471252),
        (&[0.289, 0.356, 0.774, 0.652], &[0.206, 0.744, 0.772, 0.77], 0.3762623737626237),
        (&[0.551, 0.263, 0.416], &[0.021, 0.282, 0.271], 0.24777522247775222),
        (&[0.679, 0.366, 0.435], &[0.777, 0.946, 0.994], 9.999000099990002e-05),
        (&[0.64, 0.467, 0.371, 0.355, 0.791], &[0.905, 0.177, 0.653, 0.298, 0.967], 0.5632436756324367),
        (&[0.82, 0.473, 0.558], &[0.958, 0.699, 0.745], 9.999000099990002e-05),
    ];
    let metrics: [&dyn FromStats; 1] = [&crate::metric::Mean];
    for (k, &(base, sys, want)) in cases.iter().enumerate() {
        let (b, s) = (score_stats(base), score_stats(sys));
        let r = paired(&metrics, &[b], &[s], PairedTest::Randomization(10_000, None), Some(12345)).unwrap();
        assert_eq!(r[0].p_value, Some(want), "table {k}: {base:?} vs {sys:?}");
    }
}
