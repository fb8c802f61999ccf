//! `wer_alignment(hyp, ref [, options]) -> Utf8`: jiwer 4.0.0's
//! `visualize_alignment` block of one sentence.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use super::eval::{RELATED, eval_wer, plan_wer};
use crate::common::utf8_value;
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, ScalarSpec};

crate::udf::spec!("wer_alignment": WerAlignmentFn, WerAlignmentUdf = Scalar);

impl ScalarSpec for WerAlignmentFn {
    const NAME: &'static str = "wer_alignment";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The alignment of one sentence as jiwer 4.0.0's `visualize_alignment` prints it: the lines \
                      `REF: ...`, `HYP: ...` and the operations (`S` substituted, `D` deleted, `I` inserted, `*` \
                      for the missing side), without the sentence header and the last newline. Words are separated \
                      by spaces, characters (`unit:char`) are not.",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT wer_alignment('a x c d e', 'a b c d');",
        related: RELATED,
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_wer(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) =
            eval_wer(Self::NAME, args, |cfg, h, r| Ok(cfg.alignment(h, r).map(|a| cfg.alignment_lines(&a))))?;
        Ok(utf8_value(vals, single))
    }
}
