//! Embedding mteval's UDFs in your own DataFusion application.
//!
//! `cargo run --release --example embed_sql`

use datafusion::prelude::{ParquetReadOptions, SessionContext};

#[tokio::main]
async fn main() -> datafusion::error::Result<()> {
    let mut ctx = SessionContext::new();
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
