//! Embedding mteval's UDFs in your own `DataFusion` application.
//!
//! `cargo run --release --example embed_sql`

use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};

#[tokio::main]
async fn main() -> datafusion::error::Result<()> {
    // One partition: rows reach the metrics in file order, so corpus sums are
    // sacrebleu's to the last bit; the metric functions still use every core
    // within each batch.
    let mut ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(1));
    mteval_udfs::register_all(&mut ctx)?;
    ctx.register_parquet("demo", "data/demo.parquet", ParquetReadOptions::default()).await?;
    ctx.sql(
        "SELECT system, corpus_ter(hyp, ref) AS ter, corpus_ter(hyp, [ref, ref2]) AS ter_2refs, \
                mteval_signature('ter', '', 2) AS signature \
         FROM demo GROUP BY system ORDER BY ter",
    )
    .await?
    .show()
    .await?;
    ctx.sql("SELECT seg_id, hyp, ter_alignment(hyp, ref) AS alignment FROM demo WHERE system = 'sys-poor' LIMIT 3")
        .await?
        .show()
        .await?;
    Ok(())
}
