//! `charac_ter(hyp, ref [, options]) -> Float64`: sentence `CharacTER` in
//! [0, 1] (cer's scale). `ref` is a string or a list of strings (the lowest
//! score over the references). Options: `compat:original|cer`, `fuzzy:T`.
//! (`character` is an SQL keyword, hence the underscore.)

pub mod corpus_charac_ter;
pub mod edit_distance;
pub mod word_edit_distance;

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::CharacTerConfig;

use crate::common::{RefsCol, StrCol, eval_rows, exec_parse, float64_value, plan_parse};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Scalar, ScalarSpec};

/// The `charac_ter` scalar function.
#[derive(Debug)]
pub struct CharacTerFn;

/// The `charac_ter` scalar UDF.
pub type CharacTerUdf = Scalar<CharacTerFn>;

impl ScalarSpec for CharacTerFn {
    const NAME: &'static str = "charac_ter";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence CharacTER in [0, 1] (cer 1.2.0's scale): character edit distance after word \
                      shifts, over the hypothesis length. With a list of references, the lowest score. \
                      (`character` is an SQL keyword, hence the underscore.) NULL in gives NULL out.",
        syntax: "charac_ter(hyp: str, ref: str | list<str>, options?: str) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT charac_ter('the cat sat', 'the cat sat down');",
        related: &["corpus_charac_ter", "edit_distance", "word_edit_distance", "mteval_signature"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 2, CharacTerConfig::parse).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let cfg = exec_parse(name, &args.args, 2, CharacTerConfig::parse)?;
        let hyp = StrCol::new(name, &args.args[0])?;
        let refs = RefsCol::new(name, &args.args[1])?;
        let (vals, single) =
            eval_rows(name, &hyp, &refs, args.number_rows, |h, r| cfg.sentence_multi(h, r.iter().copied()))?;
        Ok(float64_value(vals, single))
    }
}
