//! `ter_alignment(hyp, ref [, options]) -> Utf8`: the final tercom-style
//! alignment against the best reference: one label per alignment position,
//! `=` kept, `S` substituted, `I` inserted (extra hypothesis word), `D`
//! deleted (missing reference word), prefixed by `>` when the hypothesis word
//! was moved by a shift.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use crate::common::utf8_value;
use crate::ter::{eval_ter, plan_ter};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, ScalarSpec};

crate::udf::spec!("ter_alignment": TerAlignmentFn, TerAlignmentUdf = Scalar);

impl ScalarSpec for TerAlignmentFn {
    const NAME: &'static str = "ter_alignment";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The final tercom-style alignment against the best reference, one label per position: `=` \
                      kept, `S` substituted, `I` inserted (extra hypothesis word), `D` deleted (missing reference \
                      word), prefixed by `>` when the hypothesis word was moved by a shift.",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT ter_alignment('a b c d', 'c d a b');",
        related: &["ter", "ter_stats", "ter_tokenize"],
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_ter(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter(Self::NAME, args, |ter, h, r| Ok(ter.alignment(h, r)?.map(|a| a.ops)))?;
        Ok(utf8_value(vals, single))
    }
}
