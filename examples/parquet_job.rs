//! A Parquet batch job: score every row of a Parquet file and write the result
//! with `COPY ... TO`, entirely in SQL.
//!
//! `cargo run --release --example parquet_job -- data/demo.parquet target/demo-ter.parquet`

use datafusion::prelude::{SessionConfig, SessionContext};

#[tokio::main]
async fn main() -> datafusion::error::Result<()> {
    let mut args = std::env::args().skip(1);
    let input = args.next().unwrap_or_else(|| "data/demo.parquet".into());
    let output = args.next().unwrap_or_else(|| "target/demo-ter.parquet".into());
    // One partition: rows reach the metrics in file order, so corpus sums are
    // sacrebleu's to the last bit (and COPY keeps the row order); the metric
    // functions still use every core within each batch.
    let mut ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(1));
    mteval_udfs::register_all(&mut ctx)?;
    let sql = format!(
        "COPY (SELECT *, ter(hyp, ref) AS ter, ter_stats(hyp, ref)['num_edits'] AS ter_edits FROM '{input}') \
         TO '{output}' STORED AS PARQUET"
    );
    let ctx = ctx.enable_url_table();
    let rows = ctx.sql(&sql).await?.collect().await?;
    datafusion::arrow::util::pretty::print_batches(&rows)?;
    println!("wrote {output}");
    Ok(())
}
