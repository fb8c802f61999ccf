//! Datasets as inputs (issue 41, item 1): `score`, `compare`, `report` and
//! `mbr` read a folder, a glob and hive-partitioned folders as SQL does, in
//! every format, with the rows in path order and the numbers of the files
//! concatenated.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::{fails_with, mteval_ok, scored_rows, write_jsonl};
use crate::common::shared_dir;

/// The en-de rows of the shared WMT data as JSON values, in file order.
fn wmt_rows() -> Vec<Value> {
    let text = std::fs::read_to_string(shared_dir().join("data/wmt/en-de.jsonl")).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A temporary folder, the en-de rows, and them in one file `whole.jsonl` there.
fn setup() -> (tempfile::TempDir, Vec<Value>, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let rows = wmt_rows();
    let whole = dir.path().join("whole.jsonl");
    write_jsonl(&whole, &rows);
    (dir, rows, whole)
}

/// `rows` written as `parts` JSON-lines files `part-K.jsonl` in `dir` (the
/// rows in order, split in consecutive runs), converted to `ext` by `mteval
/// sql` when it is not `jsonl`; returns the folder.
fn parts(dir: &Path, rows: &[Value], parts: usize, ext: &str) -> PathBuf {
    let out = dir.join(format!("{parts}-parts-{ext}"));
    std::fs::create_dir_all(&out).unwrap();
    let tmp = dir.join(format!("{parts}-parts"));
    std::fs::create_dir_all(&tmp).unwrap();
    for (k, chunk) in rows.chunks(rows.len().div_ceil(parts)).enumerate() {
        let part = tmp.join(format!("part-{k}.jsonl"));
        write_jsonl(&part, chunk);
        let target = out.join(format!("part-{k}.{ext}"));
        if ext == "jsonl" {
            std::fs::copy(&part, &target).unwrap();
        } else {
            let q = format!("COPY (SELECT * FROM '{}') TO '{}'", part.display(), target.display());
            mteval_ok(&["sql", "-c", &q]);
        }
    }
    out
}

/// A scored file's rows: `(system, seg_id)` and the scores.
type Rows = Vec<((String, i64), Vec<f64>)>;

/// `mteval score INPUT -m bleu chrf ter --group-by system -o OUT`: its
/// corpus lines and its scored rows.
fn score(input: &str, out: &Path) -> (String, Rows) {
    let o = out.to_str().unwrap();
    let text = mteval_ok(&["score", input, "-m", "bleu", "chrf", "ter", "--group-by", "system", "-o", o]);
    (text, scored_rows(out, &["bleu", "chrf", "ter"]))
}

#[test]
fn score_reads_folders_and_globs_in_every_format_as_the_files_concatenated() {
    let (dir, rows, whole) = setup();
    let (want_text, want_rows) = score(whole.to_str().unwrap(), &dir.path().join("whole.parquet"));
    assert_eq!(want_rows.len(), rows.len());
    for ext in ["jsonl", "parquet", "csv", "tsv"] {
        let folder = parts(dir.path(), &rows, 3, ext);
        for input in [format!("{}", folder.display()), format!("{}/*.{ext}", folder.display())] {
            let (text, got) = score(&input, &dir.path().join(format!("out-{ext}.parquet")));
            assert_eq!(text, want_text, "{input}");
            assert!(got == want_rows, "{input}: the rows in file order, then row order");
        }
    }
    // A compressed dataset: the format is read through the compression suffix.
    let gz = dir.path().join("gz");
    std::fs::create_dir_all(&gz).unwrap();
    let folder = parts(dir.path(), &rows, 2, "jsonl");
    for f in std::fs::read_dir(&folder).unwrap() {
        let p = f.unwrap().path();
        let q = format!(
            "COPY (SELECT * FROM '{}') TO '{}/{}.gz' STORED AS JSON OPTIONS ('format.compression' 'gzip')",
            p.display(),
            gz.display(),
            p.file_name().unwrap().to_str().unwrap()
        );
        mteval_ok(&["sql", "-c", &q]);
    }
    let (text, got) = score(gz.to_str().unwrap(), &dir.path().join("out-gz.parquet"));
    assert_eq!(text, want_text);
    assert!(got == want_rows, "gzip-compressed parts: other rows");
}

#[test]
fn hive_partition_columns_group_and_split_like_columns() {
    let (dir, rows, whole) = setup();
    // system=NAME/part.parquet, without the system column in the files.
    let hive = dir.path().join("hive");
    let mut systems: Vec<String> = rows.iter().map(|r| r["system"].as_str().unwrap().to_owned()).collect();
    systems.dedup();
    for s in &systems {
        let d = hive.join(format!("system={s}"));
        std::fs::create_dir_all(&d).unwrap();
        let q = format!(
            "COPY (SELECT seg_id, src, ref, ref2, hyp FROM '{}' WHERE system = '{s}') TO '{}/part-0.parquet'",
            whole.display(),
            d.display()
        );
        mteval_ok(&["sql", "-c", &q]);
    }
    let h = hive.to_str().unwrap();
    let by_system = |input: &str| mteval_ok(&["score", input, "-m", "bleu", "ter", "--group-by", "system"]);
    assert_eq!(by_system(h), by_system(whole.to_str().unwrap()));
    // compare and report take the partition column as the system column.
    let base = systems[0].as_str();
    let compare = |input: &str| {
        let args = ["compare", input, "--segment-col", "seg_id", "--baseline", base, "-m", "bleu", "chrf"];
        mteval_ok(&[&args[..], &["--paired-bs", "--paired-bs-n", "200", "-f", "json"]].concat())
    };
    assert_eq!(compare(h), compare(whole.to_str().unwrap()));
    let page = dir.path().join("page.html");
    mteval_ok(&["report", h, "--segment-col", "seg_id", "-m", "bleu", "-o", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(systems.iter().all(|s| html.contains(s.as_str())), "every system in the report");
}

#[test]
fn mbr_reads_a_folder_and_empty_or_unknown_folders_are_refused_by_name() {
    let (dir, rows, whole) = setup();
    let folder = parts(dir.path(), &rows, 4, "parquet");
    let mbr = |input: &str, out: &Path| {
        mteval_ok(&["mbr", input, "--group-by", "seg_id", "-o", out.to_str().unwrap()]);
        let q = format!("SELECT seg_id, system, utility, n_candidates FROM '{}'", out.display());
        mteval_ok(&["sql", "-c", &q, "--format", "csv"])
    };
    let want = mbr(whole.to_str().unwrap(), &dir.path().join("a.parquet"));
    assert_eq!(want.lines().count(), 501, "a header and a pick per segment");
    assert_eq!(mbr(folder.to_str().unwrap(), &dir.path().join("b.parquet")), want);

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = empty.to_str().unwrap();
    fails_with(&["score", e, "-m", "ter"], &[e, "holds no files"]);
    let odd = dir.path().join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("notes.txt"), "x").unwrap();
    fails_with(
        &["score", odd.to_str().unwrap(), "-m", "ter"],
        &["cannot tell the file format of its first file", "notes.txt", "'.txt'"],
    );
    // -o inside an input folder or under an input glob's folder is refused.
    let inside = folder.join("scored.parquet");
    let glob = format!("{}/*.parquet", folder.display());
    for input in [folder.to_str().unwrap(), glob.as_str()] {
        fails_with(&["score", input, "-m", "ter", "-o", inside.to_str().unwrap()], &["inside the input"]);
    }
}

#[test]
fn score_partitions_keep_the_input_order_and_every_number() {
    let dir = tempfile::tempdir().unwrap();
    let rows = wmt_rows();
    let folder = parts(dir.path(), &rows, 5, "parquet");
    let f = folder.to_str().unwrap();
    let run = |p: &str, out: &Path| {
        let o = out.to_str().unwrap();
        let text =
            mteval_ok(&["score", f, "-m", "ter", "chrf", "bleu", "--group-by", "system", "--partitions", p, "-o", o]);
        (text, std::fs::read(out).unwrap())
    };
    let (want_text, want_bytes) = run("1", &dir.path().join("one.parquet"));
    for p in ["2", "3", "8"] {
        let (text, bytes) = run(p, &dir.path().join(format!("p{p}.parquet")));
        assert_eq!(text, want_text, "--partitions {p}");
        assert!(bytes == want_bytes, "--partitions {p}: the scored file differs");
    }
    // On a cluster: tests/cluster.rs (score_partitions_on_a_cluster_...).
}
