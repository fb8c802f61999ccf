//! `whisper_normalize(text, normalizer) -> Utf8`: Whisper's text
//! normalisation (whisper-normalizer 0.1.15), as ASR evaluations apply it to
//! both sides before WER.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::whisper::Normalizer;

use crate::common::{ConstantArg, map_text, plan_parse};
use crate::udf::{Arg, FunctionDoc, Kind, Output, ScalarSpec};

/// The argument `normalizer`.
const NORMALIZER: ConstantArg = ConstantArg { what: "the normalizer", example: "'english' or 'basic'" };

crate::udf::spec!("whisper_normalize": WhisperNormalizeFn, WhisperNormalizeUdf = Scalar);

impl ScalarSpec for WhisperNormalizeFn {
    const NAME: &'static str = "whisper_normalize";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Whisper's text normalisation, as whisper-normalizer 0.1.15 gives it: `'english'` is \
                      `EnglishTextNormalizer()` (what ASR papers and leaderboards apply before WER: the basic \
                      clean-up, plus fillers removed, contractions and titles spelled out, spoken numbers, \
                      currencies and percentages to digits, British spellings to American); `'basic'` is \
                      `BasicTextNormalizer()` (lower-case; `[...]`, `<...>`, `(...)` removed; marks, symbols \
                      and punctuation to spaces after NFKC; whitespace collapsed), with \
                      `'basic|remove_diacritics:yes'`, `'basic|preserve_marks:yes'` or \
                      `'basic|split_letters:yes'` (grapheme clusters spaced, as the `regex` module's `\\X`). Unicode rules are \
                      CPython 3.11's. NULL in gives NULL out.",
        arguments: &[
            Arg::new("text", Kind::Text, "A string."),
            Arg::new(
                "normalizer",
                Kind::Constant(NORMALIZER),
                "A constant: `english`, or `basic` optionally with `|remove_diacritics:yes`, `|preserve_marks:yes` \
                 or `|split_letters:yes`.",
            ),
        ],
        example: "SELECT whisper_normalize('Twenty five dollars, um, for the colour', 'english');",
        related: &["wer", "wer_alignment", "corpus_wer"],
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 1, Normalizer::parse).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        map_text(Self::NAME, args, Normalizer::parse, Normalizer::apply)
    }
}
