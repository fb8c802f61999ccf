//! The README's metric table is the kernels' metric table, and every name
//! in it works in every place that takes a metric name.

use crate::cli::{mteval, stderr};

#[test]
fn readme_metric_table_is_generated_from_the_metric_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (begin, end) = ("<!-- metric-table:begin -->\n", "<!-- metric-table:end -->");
    let start = readme.find(begin).expect("begin marker") + begin.len();
    let stop = readme.find(end).expect("end marker");
    let table = mteval_kernels::metric::markdown_table();
    if std::env::var_os("MTEVAL_BLESS").is_some() {
        let updated = format!("{}{table}{}", &readme[..start], &readme[stop..]);
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"), updated).unwrap();
        return;
    }
    assert_eq!(&readme[start..stop], table, "README out of date: rerun this test with MTEVAL_BLESS=1");
}

#[test]
fn every_metric_name_works_on_the_command_line_and_in_sql() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo.parquet");
    for m in &mteval_kernels::metric::METRICS {
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
}
