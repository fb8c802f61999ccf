//! Options are read however `DataFusion` delivers a constant: a literal, a
//! constant expression left for execution (the optimizer off, as in a plan
//! from elsewhere), or an array with the one value on every row (what a
//! scalar function called through datafusion-ffi receives).

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, AsArray, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Float64Type};
use datafusion::common::config::ConfigOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use datafusion::prelude::{SessionConfig, SessionContext};
use mteval_udfs::{MtevalConfig, register_all};

const ROWS: &str = "(VALUES (1, 'g', 'The cat sat on the mat', 'the cat sat on a mat'), \
     (2, 'g', 'A b C d', 'a b c d'), (3, 'g', 'the Cat', 'The cat'))";

async fn floats(ctx: &SessionContext, sql: &str) -> Vec<f64> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    batches
        .iter()
        .flat_map(|b| b.columns().iter().flat_map(|c| c.as_primitive::<Float64Type>().values().to_vec()))
        .collect()
}

fn session(optimize: bool) -> SessionContext {
    let mut cfg = SessionConfig::new().with_option_extension(MtevalConfig::default()).with_target_partitions(1);
    if !optimize {
        // No constant folding: the options stay expressions until execution.
        cfg.options_mut().optimizer.max_passes = 0;
    }
    let mut ctx = SessionContext::new_with_config(cfg);
    register_all(&mut ctx).unwrap();
    ctx
}

#[tokio::test]
async fn literal_and_unfolded_constant_options_give_the_same_scores() {
    let folded = session(true);
    let unfolded = session(false);
    // (function call with a literal, the same with an expression, the call without options)
    let calls = [
        ("ter(h, r, 'case:mixed')", "ter(h, r, concat('case:', 'mixed'))", "ter(h, r)"),
        ("corpus_ter(h, r, 'case:mixed')", "corpus_ter(h, r, concat('case:', 'mixed'))", "corpus_ter(h, r)"),
        ("corpus_chrf(h, r, 'nw:2')", "corpus_chrf(h, r, concat('nw:', '2'))", "corpus_chrf(h, r)"),
        (
            "mbr_chrf(h, 'nw:2') OVER (PARTITION BY g ORDER BY i)",
            "mbr_chrf(h, concat('nw:', '2')) OVER (PARTITION BY g ORDER BY i)",
            "mbr_chrf(h) OVER (PARTITION BY g ORDER BY i)",
        ),
        (
            "mbr_chrf_aggregate(h, r, 'nw:2') OVER (PARTITION BY g ORDER BY i)",
            "mbr_chrf_aggregate(h, r, concat('nw:', '2')) OVER (PARTITION BY g ORDER BY i)",
            "mbr_chrf_aggregate(h, r) OVER (PARTITION BY g ORDER BY i)",
        ),
    ];
    for (literal, expr, plain) in calls {
        let q = |call: &str| format!("SELECT {call} AS v FROM {ROWS} AS t(i, g, h, r)");
        let want = floats(&folded, &q(literal)).await;
        let defaults = floats(&folded, &q(plain)).await;
        assert_ne!(want, defaults, "{literal}: the options must change the scores for the test to mean anything");
        assert_eq!(floats(&unfolded, &q(literal)).await, want, "{literal}");
        assert_eq!(floats(&unfolded, &q(expr)).await, want, "{expr}");
        assert_eq!(floats(&folded, &q(expr)).await, want, "{expr} (folded)");
    }
    // A column is still refused, naming the function.
    let e = unfolded
        .sql(&format!("SELECT corpus_ter(h, r, r) AS v FROM {ROWS} AS t(i, g, h, r)"))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("corpus_ter: options must be a constant string"), "{e}");
}

fn invoke_ter(options: ColumnarValue, rows: usize) -> datafusion::common::Result<Vec<f64>> {
    let hyp: ArrayRef = Arc::new(StringArray::from(vec!["A b C d"; rows]));
    let reference: ArrayRef = Arc::new(StringArray::from(vec!["a b c d"; rows]));
    let field = |n: &str| Arc::new(Field::new(n, DataType::Utf8, true));
    let args = ScalarFunctionArgs {
        args: vec![ColumnarValue::Array(hyp), ColumnarValue::Array(reference), options],
        arg_fields: vec![field("h"), field("r"), field("o")],
        number_rows: rows,
        return_field: Arc::new(Field::new("ter", DataType::Float64, true)),
        config_options: Arc::new(ConfigOptions::new()),
    };
    let ter = mteval_udfs::scalar_functions().into_iter().find(|f| f.name() == "ter").expect("ter is registered");
    let out = ter.invoke_with_args(args)?.into_array(rows)?;
    Ok(out.as_primitive::<Float64Type>().values().to_vec())
}

#[test]
fn a_one_value_array_of_options_is_read_as_the_constant() {
    let scalar = invoke_ter(ColumnarValue::Scalar("case:mixed".into()), 3).unwrap();
    assert_eq!(scalar, [50.0; 3], "two of four words differ in case");
    let array = ColumnarValue::Array(Arc::new(StringArray::from(vec!["case:mixed"; 3])));
    assert_eq!(invoke_ter(array, 3).unwrap(), scalar);
    let one = ColumnarValue::Array(Arc::new(StringArray::from(vec!["case:mixed"])));
    assert_eq!(invoke_ter(one, 1).unwrap(), [50.0]);
    // Different values on different rows are a column, not options.
    let mixed = ColumnarValue::Array(Arc::new(StringArray::from(vec!["case:mixed", "", "case:mixed"])));
    let e = invoke_ter(mixed, 3).unwrap_err().to_string();
    assert!(e.contains("ter: options must be a constant string"), "{e}");
    let nulls = ColumnarValue::Array(Arc::new(StringArray::from(vec![None::<&str>; 3])));
    assert!(invoke_ter(nulls, 3).unwrap_err().to_string().contains("not NULL"));
    let wrong = ColumnarValue::Array(Arc::new(datafusion::arrow::array::Int64Array::from(vec![1; 3])));
    assert!(invoke_ter(wrong, 3).unwrap_err().to_string().contains("must be a string"));
}
