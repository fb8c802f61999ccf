//! `ter_tokenize(text [, options]) -> Utf8`: the words TER scores a
//! hypothesis on (sacrebleu's tercom tokenizer after `rstrip`), joined by
//! single spaces. Useful to see what `norm:yes`, `punct:no` or `asian:yes` do.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::Ter;

use crate::common::{StrCol, coerce_options, coerce_string, exec_parse, plan_parse, utf8_value};
use crate::udf::{ARG_OPTIONS, Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

/// The `ter_tokenize` scalar function.
#[derive(Debug)]
pub struct TerTokenizeFn;

/// The `ter_tokenize` scalar UDF.
pub type TerTokenizeUdf = Scalar<TerTokenizeFn>;

impl ScalarSpec for TerTokenizeFn {
    const NAME: &'static str = "ter_tokenize";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The words TER scores a text on (sacrebleu's tercom tokenizer after `rstrip`), joined by \
                      single spaces: shows what `norm:yes`, `punct:no` or `asian:yes` do.",
        syntax: "ter_tokenize(text: str, options?: str) -> str",
        arguments: &[("text", "A string."), ARG_OPTIONS],
        example: "SELECT ter_tokenize('Hello, world!', 'norm:yes|punct:no');",
        related: &["ter", "ter_alignment"],
    };

    const COERCE: Coerce = |name, t| match t {
        [s] => Ok(vec![coerce_string(name, "the text", s)?]),
        [s, o] => Ok(vec![coerce_string(name, "the text", s)?, coerce_options(name, o)?]),
        _ => plan_err!("{name} takes (text [, options])"),
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 1, Ter::from_options).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let ter = exec_parse(name, &args.args, 1, Ter::from_options)?;
        let text = StrCol::new(name, &args.args[0])?;
        let single = text.is_scalar();
        let n = if single { 1 } else { args.number_rows };
        Ok(utf8_value((0..n).map(|i| text.get(i).map(|s| ter.tokenize(s).join(" "))).collect(), single))
    }
}
