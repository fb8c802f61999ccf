//! `ter_tokenize(text [, options]) -> Utf8`: the words TER scores a
//! hypothesis on (sacrebleu's tercom tokenizer after `rstrip`), joined by
//! single spaces. Useful to see what `norm:yes`, `punct:no` or `asian:yes` do.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::Ter;

use crate::common::{map_text, plan_parse};
use crate::udf::{ARG_OPTIONS, Arg, FunctionDoc, Kind, Output, ScalarSpec};

crate::udf::spec!("ter_tokenize": TerTokenizeFn, TerTokenizeUdf = Scalar);

impl ScalarSpec for TerTokenizeFn {
    const NAME: &'static str = "ter_tokenize";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The words TER scores a text on (sacrebleu's tercom tokenizer after `rstrip`), joined by \
                      single spaces: shows what `norm:yes`, `punct:no` or `asian:yes` do.",
        arguments: &[Arg::new("text", Kind::Text, "A string."), ARG_OPTIONS],
        example: "SELECT ter_tokenize('Hello, world!', 'norm:yes|punct:no');",
        related: &["ter", "ter_alignment"],
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 1, Ter::from_options).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        map_text(Self::NAME, args, Ter::from_options, |ter, s| ter.tokenize(s).join(" "))
    }
}
