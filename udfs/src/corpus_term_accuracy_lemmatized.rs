//! `corpus_term_accuracy_lemmatized(hyp, lemmas, terms) -> Float64`:
//! lemmatized match accuracy (LMA) of CBS `match_accuracy`, with the same
//! denominator rule as `corpus_term_accuracy`. `lemmas` as in
//! `term_match_lemmatized`. Errors where the reference raises: its lemma
//! mapping assertions (naming the row), and a kept prediction that holds a
//! newline between two non-blank lines (stanza would see two sentences).

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::Result;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::{Accumulator, AggregateUDFImpl, Signature};
use mteval_kernels::terms::TermAccuracy;

use crate::corpus_term_accuracy::{TermAccuracyAccumulator, accuracy_state_fields};
use crate::term_match_lemmatized::coerce_lemmatized_args;

crate::udf_struct!(
    /// The `corpus_term_accuracy_lemmatized` aggregate UDF.
    CorpusTermAccuracyLemmatizedUdaf
);

impl AggregateUDFImpl for CorpusTermAccuracyLemmatizedUdaf {
    fn name(&self) -> &'static str {
        "corpus_term_accuracy_lemmatized"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, t: &[DataType]) -> Result<Vec<DataType>> {
        coerce_lemmatized_args(self.name(), t)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn accumulator(&self, _acc_args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        Ok(Box::new(TermAccuracyAccumulator { lemmatized: true, acc: TermAccuracy::default() }))
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(accuracy_state_fields(&args))
    }
}
