//! The SQL guide's generated tables (docs/sql.md: the metric table, the
//! option tables and the SQL function table) equal what the code says, every name in them works in every place
//! that takes a metric name, and SQL's `information_schema` describes every
//! mteval function.

use crate::cli::{mteval, stderr};

/// Checks (or, with `MTEVAL_BLESS=1`, rewrites) the SQL guide's text
/// (docs/sql.md) between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
fn check_generated(name: &str, table: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sql.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let (begin, end) = (format!("<!-- {name}:begin -->\n"), format!("<!-- {name}:end -->"));
    let start = readme.find(&begin).expect("begin marker") + begin.len();
    let stop = readme.find(&end).expect("end marker");
    if std::env::var_os("MTEVAL_BLESS").is_some() {
        std::fs::write(path, format!("{}{table}{}", &readme[..start], &readme[stop..])).unwrap();
        return;
    }
    assert_eq!(&readme[start..stop], table, "docs/sql.md's {name} out of date: rerun this test with MTEVAL_BLESS=1");
}

#[test]
fn readme_metric_table_is_generated_from_the_metric_table() {
    check_generated("metric-table", &mteval::metrics::markdown_table());
}

/// Every metric with standard SQL functions has its option table, once for
/// the rows that share their options (chrF++ is chrF's, the WER measures
/// WER's).
#[test]
fn readme_option_tables_are_generated_from_the_option_keys() {
    let mut seen: Vec<*const [mteval_kernels::options::OptionKey]> = Vec::new();
    for m in mteval_kernels::metrics::METRICS.iter().filter(|m| m.sql.is_some()) {
        let Some(&first) = m.options.first() else { continue };
        if seen.contains(&std::ptr::from_ref(first)) {
            continue;
        }
        seen.push(std::ptr::from_ref(first));
        check_generated(&format!("options:{}", m.name), &mteval::metrics::options_table(m.name).unwrap());
    }
    assert!(seen.len() >= 6, "{} option tables", seen.len());
    let t = mteval::metrics::options_table("chrf++").unwrap();
    assert!(t.starts_with("| key |") && t.contains("| `nw` | `0` (`2` = chrF++; 0–32) |"), "{t}");
    assert!(mteval::metrics::options_table("mbr_chrf").unwrap().contains("| `self` |"));
}

#[test]
fn readme_function_table_is_generated_from_the_functions_documentation() {
    let table = mteval_udfs::markdown_function_table();
    for (name, ..) in mteval_udfs::documented_functions() {
        assert!(table.contains(&format!("| `{name}(")), "{name} missing from the function table");
    }
    check_generated("function-table", &table);
}

#[test]
fn information_schema_describes_every_function() {
    let q = "SELECT routine_name, function_type, description, syntax_example FROM information_schema.routines \
             ORDER BY routine_name";
    let o = mteval(&["sql", "--format", "csv", "-c", q]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    for (name, kind, doc) in mteval_udfs::documented_functions() {
        let doc = doc.unwrap();
        let row = out
            .lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("{name} not in information_schema.routines:\n{out}"));
        assert!(row.to_ascii_lowercase().contains(kind), "{name}: {row}");
        let summary = &doc.description[..doc.description.find('.').unwrap_or(30).min(30)];
        assert!(row.contains(summary), "{name}: description missing in {row}");
    }
    // DataFusion's SHOW FUNCTIONS leaves out functions that check their own
    // argument types (mteval's, and built-ins such as coalesce); the CLI adds them.
    let show = |like: &str| {
        let o = mteval(&["sql", "--format", "ndjson", "-c", &format!("SHOW FUNCTIONS LIKE '{like}'")]);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let out = show("corpus_%");
    let row =
        out.lines().find(|l| l.starts_with(r#"{"function_name":"corpus_ter","#)).unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains(r#""parameters":["hyp","ref","options"]"#), "{row}");
    assert!(row.contains(r#""function_type":"AGGREGATE""#), "{row}");
    assert!(row.contains("Corpus TER exactly as sacrebleu"), "{row}");
    let corpus = mteval_udfs::documented_functions().into_iter().filter(|(n, ..)| n.starts_with("corpus_")).count();
    assert!(corpus >= 5);
    assert_eq!(out.lines().count(), corpus, "the LIKE pattern applies: {out}");
    assert!(show("coalesce").contains(r#""function_name":"coalesce""#));
    let abs = show("abs");
    assert!(abs.lines().count() > 1 && !abs.contains(r#""parameter_types":null"#), "abs keeps its typed rows: {abs}");
}

#[test]
fn every_metric_name_works_on_the_command_line_and_in_sql() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo.parquet");
    for m in mteval_kernels::metrics::METRICS {
        for name in std::iter::once(&m.name).chain(m.aliases) {
            let q = format!("SELECT mteval_signature('{name}') AS s");
            let o = mteval(&["sql", "--format", "csv", "-c", &q]);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
            let sig = String::from_utf8(o.stdout).unwrap();
            let want = m.configure("").unwrap().signature(mteval_kernels::NRefs::Fixed(1)).to_string();
            assert_eq!(sig.lines().nth(1), Some(want.as_str()), "{name}");
            let Some(column) = m.column else { continue };
            if column.starts_with("term_acc") {
                continue; // needs a terms column, which the demo table lacks
            }
            // -m NAME and --options NAME=... with another spelling of the same metric.
            let o = mteval(&["score", demo, "-m", name, "--options", &format!("{}=", m.name.to_uppercase())]);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
            assert!(String::from_utf8_lossy(&o.stdout).contains(&want[..want.find('|').unwrap()]), "{name}");
        }
    }
    // The MBR utilities: a signature in SQL, and `-m` refuses them by name.
    for u in mteval_kernels::metrics::UTILITIES {
        let q = format!("SELECT mteval_signature('{}', 'self:no') AS s", u.name);
        let o = mteval(&["sql", "--format", "csv", "-c", &q]);
        assert!(o.status.success(), "{}: {}", u.name, stderr(&o));
        let want = u.configure("self:no").unwrap().signature().to_string();
        assert_eq!(String::from_utf8(o.stdout).unwrap().lines().nth(1), Some(want.as_str()), "{}", u.name);
        let o = mteval(&["score", demo, "-m", u.name]);
        assert!(!o.status.success(), "{}", u.name);
        assert!(stderr(&o).contains(&format!("{} is an MBR utility", u.name)), "{}", stderr(&o));
    }
}
