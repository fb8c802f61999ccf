//! Recipe for the demo dataset in `data/` (the README's default input).
//!
//! Everything is synthetic and generated here, deterministically: 100
//! English reference sentences from a small grammar, a second reference per
//! sentence (a paraphrase by synonym substitution), and three "systems" whose
//! hypotheses are the reference with different amounts of noise (synonyms,
//! dropped and duplicated words, swapped phrases, case and punctuation
//! changes). Run: `cargo run --release --example make_demo_data`.
//!
//! Writes `data/demo.jsonl`, `data/demo.parquet` (columns `seg_id`, system, hyp,
//! ref, ref2) and line-aligned text files `data/text/{ref,ref2,hyp.<system>}.txt`.

use std::fmt::Write as _;
use std::sync::Arc;

use datafusion::arrow::array::{Int64Array, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;

/// A tiny deterministic PRNG (64-bit LCG), so the data never changes.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next()).unwrap_or(0) % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const SUBJECTS: &[&str] = &[
    "The committee",
    "Our neighbour",
    "The young engineer",
    "A local farmer",
    "The city council",
    "My grandmother",
    "The new manager",
    "Several students",
    "The old fisherman",
    "The research team",
    "A tired nurse",
    "The mayor",
];
const VERBS: &[&str] = &[
    "announced",
    "discovered",
    "repaired",
    "described",
    "rejected",
    "approved",
    "painted",
    "explained",
    "ordered",
    "studied",
    "sold",
    "delivered",
];
const OBJECTS: &[&str] = &[
    "the broken bridge",
    "a detailed plan",
    "the annual report",
    "an unusual idea",
    "the wooden boat",
    "a small garden",
    "the budget proposal",
    "the railway timetable",
    "a famous painting",
    "the water supply",
    "the school library",
    "a quiet apartment",
];
const TAILS: &[&str] = &[
    "on Monday morning",
    "after a long discussion",
    "without any help",
    "in front of the town hall",
    "before the storm arrived",
    "during the summer holidays",
    "for the third time",
    "with great enthusiasm",
    "at the end of the year",
    "despite the heavy rain",
];
const EXTRAS: &[&str] = &[
    "",
    "",
    "",
    ", and everyone was surprised",
    ", which cost 1,500 euros",
    " because it was urgent",
    ", as the newspaper reported",
    " (again)",
    ", although nobody asked",
];
const SYNONYMS: &[(&str, &str)] = &[
    ("announced", "declared"),
    ("discovered", "found"),
    ("repaired", "fixed"),
    ("described", "outlined"),
    ("rejected", "refused"),
    ("approved", "accepted"),
    ("explained", "clarified"),
    ("ordered", "requested"),
    ("studied", "examined"),
    ("sold", "traded"),
    ("delivered", "brought"),
    ("broken", "damaged"),
    ("detailed", "thorough"),
    ("unusual", "strange"),
    ("small", "little"),
    ("quiet", "calm"),
    ("famous", "well-known"),
    ("long", "lengthy"),
    ("great", "much"),
    ("surprised", "astonished"),
    ("urgent", "pressing"),
    ("young", "junior"),
    ("tired", "weary"),
    ("old", "elderly"),
];

fn synonym(w: &str) -> Option<&'static str> {
    SYNONYMS.iter().find(|(a, _)| *a == w).map(|(_, b)| *b)
}

fn reference(rng: &mut Lcg) -> String {
    format!("{} {} {} {}{}.", rng.pick(SUBJECTS), rng.pick(VERBS), rng.pick(OBJECTS), rng.pick(TAILS), rng.pick(EXTRAS))
}

fn paraphrase(rng: &mut Lcg, s: &str) -> String {
    let words: Vec<String> = s
        .split(' ')
        .map(|w| match synonym(w) {
            Some(x) if rng.chance(60) => x.to_owned(),
            _ => w.to_owned(),
        })
        .collect();
    words.join(" ")
}

/// A system's output: the reference with `noise` percent chance per edit kind.
fn hypothesis(rng: &mut Lcg, reference: &str, noise: u64) -> String {
    let mut words: Vec<String> = reference.split(' ').map(str::to_owned).collect();
    for w in &mut words {
        if let Some(x) = synonym(w)
            && rng.chance(noise * 2)
        {
            *w = x.to_owned();
        }
    }
    if rng.chance(noise) && words.len() > 3 {
        let i = 1 + rng.below(words.len() - 2);
        words.remove(i);
    }
    if rng.chance(noise / 2) && words.len() > 3 {
        let i = rng.below(words.len());
        let w = words[i].clone();
        words.insert(i, w);
    }
    if rng.chance(noise) && words.len() > 6 {
        // Move a short phrase elsewhere (what TER's shifts are for).
        let start = rng.below(words.len() - 3);
        let len = 1 + rng.below(3);
        let block: Vec<String> = words.drain(start..start + len).collect();
        let to = rng.below(words.len() + 1);
        for (k, b) in block.into_iter().enumerate() {
            words.insert(to + k, b);
        }
    }
    let mut s = words.join(" ");
    if rng.chance(noise / 3) {
        s = s.to_lowercase();
    }
    if rng.chance(noise / 3) {
        s = s.trim_end_matches('.').to_owned();
    }
    s
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Lcg(20_261_122);
    let n = 100;
    let systems = [("sys-good", 10), ("sys-fair", 30), ("sys-poor", 60)];
    let refs: Vec<String> = (0..n).map(|_| reference(&mut rng)).collect();
    let refs2: Vec<String> = refs.iter().map(|r| paraphrase(&mut rng, r)).collect();
    let (mut seg, mut sys, mut hyp, mut r1, mut r2) = (vec![], vec![], vec![], vec![], vec![]);
    std::fs::create_dir_all("data/text")?;
    for (name, noise) in systems {
        let mut text = String::new();
        for i in 0..n {
            let h = hypothesis(&mut rng, &refs[i], noise);
            writeln!(text, "{h}")?;
            seg.push(i64::try_from(i)?);
            sys.push(name.to_owned());
            hyp.push(h);
            r1.push(refs[i].clone());
            r2.push(refs2[i].clone());
        }
        std::fs::write(format!("data/text/hyp.{name}.txt"), text)?;
    }
    std::fs::write("data/text/ref.txt", refs.join("\n") + "\n")?;
    std::fs::write("data/text/ref2.txt", refs2.join("\n") + "\n")?;

    let schema = Arc::new(Schema::new(vec![
        Field::new("seg_id", DataType::Int64, false),
        Field::new("system", DataType::Utf8, false),
        Field::new("hyp", DataType::Utf8, false),
        Field::new("ref", DataType::Utf8, false),
        Field::new("ref2", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![
            Arc::new(Int64Array::from(seg.clone())),
            Arc::new(StringArray::from(sys.clone())),
            Arc::new(StringArray::from(hyp.clone())),
            Arc::new(StringArray::from(r1.clone())),
            Arc::new(StringArray::from(r2.clone())),
        ],
    )?;
    let mut w = ArrowWriter::try_new(std::fs::File::create("data/demo.parquet")?, schema, None)?;
    w.write(&batch)?;
    w.close()?;
    let mut jsonl = String::new();
    for i in 0..seg.len() {
        let row = serde_json::json!({"seg_id": seg[i], "system": sys[i], "hyp": hyp[i], "ref": r1[i], "ref2": r2[i]});
        writeln!(jsonl, "{row}")?;
    }
    std::fs::write("data/demo.jsonl", jsonl)?;
    println!("wrote {} rows to data/demo.parquet and data/demo.jsonl", seg.len());
    Ok(())
}
