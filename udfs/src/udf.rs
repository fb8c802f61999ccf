//! How an mteval SQL function is declared, written once.
//!
//! A function is a small spec type (its name, documentation, argument
//! coercion, result type and evaluation) implementing [`ScalarSpec`],
//! [`AggregateSpec`] or [`WindowSpec`]; [`Scalar`], [`Aggregate`] and
//! [`Window`] turn a spec into `DataFusion`'s `ScalarUDFImpl`,
//! `AggregateUDFImpl` and `WindowUDFImpl`. The generic parts live here: the
//! user-defined signature, the `Documentation` that `SHOW FUNCTIONS` and
//! `information_schema.routines` print, the plan-time check of the options,
//! and for functions that run on a device the binding of the session's
//! `mteval.device` into the plan (see `common::bind_device`).

use std::fmt::{self, Write as _};
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::expr::{AggregateFunction, WindowFunction};
use datafusion::logical_expr::function::{
    AccumulatorArgs, AggregateFunctionSimplification, PartitionEvaluatorArgs, StateFieldsArgs,
    WindowFunctionSimplification, WindowUDFFieldArgs,
};
use datafusion::logical_expr::{
    Accumulator, AggregateUDF, AggregateUDFImpl, ColumnarValue, DocSection, Documentation, Expr, PartitionEvaluator,
    ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility, WindowFunctionDefinition, WindowUDF,
    WindowUDFImpl,
};
use mteval_kernels::backend::DeviceRequest;

use crate::common::{ConstantArg, OPTIONS, bind_device, coerce_constant, coerce_refs, coerce_string, list_of};

/// The documentation section of every mteval function.
pub const DOC_SECTION: DocSection =
    DocSection { include: true, label: "MT evaluation functions", description: Some("mteval's metrics") };

/// A function's documentation, as constants; [`FunctionDoc::build`] makes
/// `DataFusion`'s `Documentation` of it. The call's syntax is not written
/// here: it is derived from the typed [`Arg`]s and the result type, as the
/// argument coercion is ([`coerce_args`]), so the three cannot disagree.
#[derive(Debug, Clone, Copy)]
pub struct FunctionDoc {
    /// What it computes, in a few sentences (the first is the summary).
    pub description: &'static str,
    /// The arguments, in order: name, what they take and what they mean.
    pub arguments: &'static [Arg],
    /// An SQL example.
    pub example: &'static str,
    /// Related functions.
    pub related: &'static [&'static str],
}

impl FunctionDoc {
    /// `DataFusion`'s `Documentation` of the function `name` returning
    /// `output`; `over` adds the window clause to the syntax.
    #[must_use]
    pub fn build(&self, name: &str, output: &DataType, over: bool) -> Documentation {
        let mut b = Documentation::builder(DOC_SECTION, self.description, self.syntax(name, output, over))
            .with_sql_example(format!("```sql\n{}\n```", self.example));
        for a in self.arguments {
            b = b.with_argument(a.name, a.doc);
        }
        for r in self.related {
            b = b.with_related_udf(*r);
        }
        b.build()
    }

    /// The call with its argument and result types, e.g.
    /// `ter(hyp: str, ref: str | list<str>, options?: str) -> float64`.
    #[must_use]
    pub fn syntax(&self, name: &str, output: &DataType, over: bool) -> String {
        let args: Vec<String> = self
            .arguments
            .iter()
            .map(|a| format!("{}{}: {}", a.name, if a.optional { "?" } else { "" }, a.kind.type_name()))
            .collect();
        let over = if over { " OVER (PARTITION BY ...)" } else { "" };
        format!("{name}({}){over} -> {}", args.join(", "), type_name(output))
    }
}

/// How a type is written in a function's syntax: `str`, `float64`,
/// `list<int64>`, `struct{score: float64, stats: list<int64>}`.
#[must_use]
pub fn type_name(t: &DataType) -> String {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => "str".to_owned(),
        DataType::Boolean => "bool".to_owned(),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            format!("list<{}>", type_name(f.data_type()))
        }
        DataType::Struct(fields) => {
            let fields: Vec<String> =
                fields.iter().map(|f| format!("{}: {}", f.name(), type_name(f.data_type()))).collect();
            format!("struct{{{}}}", fields.join(", "))
        }
        other => other.to_string().to_lowercase(),
    }
}

/// One argument of a function: its name, what it takes (which checks and
/// coerces its type and names the type in the syntax), whether it may be
/// left out (only trailing arguments may) and what it means.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    /// The name, as the syntax and the errors give it.
    pub name: &'static str,
    /// What it takes.
    pub kind: Kind,
    /// Whether a call may leave it out (and every argument after it).
    pub optional: bool,
    /// What it means.
    pub doc: &'static str,
}

impl Arg {
    /// A required argument.
    #[must_use]
    pub const fn new(name: &'static str, kind: Kind, doc: &'static str) -> Self {
        Self { name, kind, optional: false, doc }
    }

    /// This argument, which a call may leave out.
    #[must_use]
    pub const fn optional(self) -> Self {
        Self { optional: true, ..self }
    }
}

/// What an argument takes.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A string column, kept in its string type (a dictionary of strings
    /// gives its values' type).
    Text,
    /// A reference: a string, or a list of strings (several references).
    Refs,
    /// A number column, as float64.
    Number,
    /// An integer column, as int64.
    Integer,
    /// A list of integers per row, as `list<int64>`.
    Integers,
    /// A value of any type, compared as its text (a system name, a
    /// segment id), as Utf8.
    Key,
    /// A constant string: the options, a metric's name.
    Constant(ConstantArg),
    /// A type of its own: its name in the syntax and its coercion.
    Other {
        /// The type, as the syntax writes it.
        ty: &'static str,
        /// Checks and coerces it (given the function's name, for errors).
        coerce: fn(&str, &DataType) -> Result<DataType>,
    },
}

impl Kind {
    /// The type, as the syntax writes it.
    #[must_use]
    pub const fn type_name(&self) -> &'static str {
        match self {
            Self::Text | Self::Constant(_) => "str",
            Self::Refs => "str | list<str>",
            Self::Number => "float64",
            Self::Integer => "int64",
            Self::Integers => "list<int64>",
            Self::Key => "any",
            Self::Other { ty, .. } => ty,
        }
    }

    /// The type the argument `arg` of the function `name` is coerced to.
    ///
    /// # Errors
    /// A type it does not take, naming the function and the argument.
    pub fn coerce(&self, name: &str, arg: &str, t: &DataType) -> Result<DataType> {
        let integers = |f: &FieldRef| f.data_type().is_integer() || f.data_type().is_null();
        match (self, t) {
            (Self::Text, _) => coerce_string(name, arg, t),
            (Self::Refs, _) => coerce_refs(name, t),
            (Self::Number, _) if t.is_numeric() || t.is_null() => Ok(DataType::Float64),
            (Self::Number, _) => plan_err!("{name}: {arg} must be a number column, got {t}"),
            (Self::Integer, _) if t.is_integer() || t.is_null() => Ok(DataType::Int64),
            (Self::Integer, _) => plan_err!("{name}: {arg} must be an integer, got {t}"),
            (Self::Integers, DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _))
                if integers(f) =>
            {
                Ok(list_of(DataType::Int64, true))
            }
            (Self::Integers, DataType::Null) => Ok(list_of(DataType::Int64, true)),
            (Self::Integers, _) => plan_err!("{name}: {arg} must be a list of integers, got {t}"),
            (Self::Key, _) => Ok(DataType::Utf8),
            (Self::Constant(c), _) => coerce_constant(name, *c, t),
            (Self::Other { coerce, .. }, _) => coerce(name, t),
        }
    }
}

/// The argument list as the arity error gives it, e.g. `(hyp, ref [, options])`.
fn shape(args: &[Arg]) -> String {
    let mut s = String::new();
    for a in args {
        let sep = if s.is_empty() { "" } else { ", " };
        let _ = if a.optional { write!(s, " [{sep}{}]", a.name) } else { write!(s, "{sep}{}", a.name) };
    }
    format!("({})", s.trim_start())
}

/// Checks the number of arguments of a call of `name` against `args` and
/// coerces each argument's type as its [`Kind`] says.
///
/// # Errors
/// Too few or too many arguments, or a type an argument does not take.
pub fn coerce_args(name: &str, args: &[Arg], t: &[DataType]) -> Result<Vec<DataType>> {
    let required = args.iter().filter(|a| !a.optional).count();
    if !(required..=args.len()).contains(&t.len()) {
        return plan_err!("{name} takes {}, got {} arguments", shape(args), t.len());
    }
    args.iter().zip(t).map(|(a, t)| a.kind.coerce(name, a.name, t)).collect()
}

/// How a function checks and coerces its argument types (given its name,
/// for the errors), where its [`Arg`]s cannot say it.
pub type Coerce = fn(&str, &[DataType]) -> Result<Vec<DataType>>;

/// A function's result type.
pub type Output = fn() -> DataType;

/// The argument `hyp` of the metric functions.
pub const ARG_HYP: Arg = Arg::new("hyp", Kind::Text, "The hypothesis (system output): a string column.");
/// The argument `ref` of the metric functions.
pub const ARG_REF: Arg = Arg::new(
    "ref",
    Kind::Refs,
    "The reference: a string, or a list of strings (several references; NULL elements are skipped).",
);
/// The argument `options` of the metric functions.
pub const ARG_OPTIONS: Arg = Arg::new(
    "options",
    Kind::Constant(OPTIONS),
    "Optional constant string of `key:value` pairs separated by `|`, in the signature's syntax (see the README's \
     option tables); a signature pastes back as options.",
)
.optional();
/// The arguments of a text metric: `(hyp, ref [, options])`.
pub const METRIC_ARGS: &[Arg] = &[ARG_HYP, ARG_REF, ARG_OPTIONS];

/// The name and documentation of one function of a family whose functions
/// share an implementation generic over it (`mbr_chrf` /
/// `mbr_chrf_aggregate`, `corpus_bootstrap` / `paired_test`, `term_match` /
/// `term_match_lemmatized`, ...): each function's file implements it, so the
/// shared implementation never names the other files.
pub trait Documented: Send + Sync + 'static {
    /// The function's SQL name.
    const NAME: &'static str;
    /// The documentation.
    const DOC: FunctionDoc;
}

/// Declares `$name`, the [`Documented`] carrier of the function `$function`:
/// its name and this file's `DOC`.
macro_rules! documented {
    ($name:ident, $function:literal) => {
        #[doc = concat!("`", $function, "`'s documentation ([`DOC`]).")]
        #[derive(Debug)]
        pub struct $name;

        impl $crate::udf::Documented for $name {
            const NAME: &'static str = $function;
            const DOC: $crate::udf::FunctionDoc = DOC;
        }
    };
}
pub(crate) use documented;

/// Declares the spec type `$spec` of the SQL function `$function` (a unit
/// struct, for its [`ScalarSpec`] or [`AggregateSpec`]) and its UDF type
/// `$udf`, the `$wrapper` ([`Scalar`] or [`Aggregate`]) made of it.
macro_rules! spec {
    ($function:literal: $spec:ident, $udf:ident = $wrapper:ident) => {
        #[doc = concat!("The `", $function, "` function's spec.")]
        #[derive(Debug)]
        pub struct $spec;

        #[doc = concat!("The `", $function, "` UDF.")]
        pub type $udf = $crate::udf::$wrapper<$spec>;
    };
}
pub(crate) use spec;

/// A scalar function's spec.
pub trait ScalarSpec: Send + Sync + 'static {
    /// The SQL name.
    const NAME: &'static str;
    /// Its documentation.
    const DOC: FunctionDoc;
    /// Checks and coerces the argument types where the documented
    /// arguments cannot (default: [`coerce_args`] over them).
    const COERCE: Option<Coerce> = None;
    /// The result type (default: a score, float64).
    const OUTPUT: Output = || DataType::Float64;
    /// Checks the constant arguments (the options) when a query is planned.
    ///
    /// # Errors
    /// Invalid options, naming them.
    fn check(_args: &ReturnFieldArgs<'_>) -> Result<()> {
        Ok(())
    }
    /// Evaluates a batch.
    ///
    /// # Errors
    /// Bad input, naming the row.
    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue>;
}

/// What the three wrappers hold: the user-defined signature (the spec
/// checks and coerces the argument types), the documentation and the device
/// the function is bound to (`None`: `auto`, or a function that runs on no
/// device).
struct Parts<S> {
    signature: Signature,
    doc: Documentation,
    device: Option<DeviceRequest>,
    spec: PhantomData<fn() -> S>,
}

impl<S> Parts<S> {
    /// The parts of the function `name` documented by `doc`, returning
    /// `output` (`over`: a window function).
    fn new(name: &str, doc: &FunctionDoc, output: &DataType, over: bool, device: Option<DeviceRequest>) -> Self {
        let doc = doc.build(name, output, over);
        Self { signature: Signature::user_defined(Volatility::Immutable), doc, device, spec: PhantomData }
    }
}

/// The methods the three `DataFusion` traits share, delegated to the spec.
macro_rules! delegate_common {
    () => {
        fn name(&self) -> &str {
            S::NAME
        }

        fn signature(&self) -> &Signature {
            &self.0.signature
        }

        fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
            match S::COERCE {
                Some(coerce) => coerce(S::NAME, arg_types),
                None => coerce_args(S::NAME, S::DOC.arguments, arg_types),
            }
        }

        fn documentation(&self) -> Option<&Documentation> {
            Some(&self.0.doc)
        }
    };
}

/// A scalar UDF made of a [`ScalarSpec`].
pub struct Scalar<S>(Parts<S>);

impl<S: ScalarSpec> Default for Scalar<S> {
    fn default() -> Self {
        Self(Parts::new(S::NAME, &S::DOC, &(S::OUTPUT)(), false, None))
    }
}

impl<S: ScalarSpec> ScalarUDFImpl for Scalar<S> {
    delegate_common!();

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok((S::OUTPUT)())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        S::check(&args)?;
        Ok(Arc::new(Field::new(S::NAME, (S::OUTPUT)(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        S::invoke(&args)
    }
}

/// An aggregate function's spec.
pub trait AggregateSpec: Send + Sync + 'static {
    /// The SQL name.
    const NAME: &'static str;
    /// Its documentation.
    const DOC: FunctionDoc;
    /// Whether it runs on a device, so the session's `mteval.device` is bound
    /// into the plan.
    const ON_DEVICE: bool = false;
    /// Checks and coerces the argument types where the documented
    /// arguments cannot (default: [`coerce_args`] over them).
    const COERCE: Option<Coerce> = None;
    /// The result type (default: a score, float64).
    const OUTPUT: Output = || DataType::Float64;
    /// The fields of the intermediate state (each named with
    /// `format_state_name(args.name, ...)`).
    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef>;
    /// A new accumulator, running on `device` (`None`: `auto`).
    ///
    /// # Errors
    /// Invalid options, naming them.
    fn accumulator(args: &AccumulatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>>;
}

/// An aggregate UDF made of an [`AggregateSpec`], bound to a device when it
/// runs on one.
pub struct Aggregate<S>(Parts<S>);

impl<S: AggregateSpec> Aggregate<S> {
    /// This function, bound to `device` (`None`: `auto`; ignored for a
    /// function that runs on no device).
    #[must_use]
    pub fn on(device: Option<DeviceRequest>) -> Self {
        Self(Parts::new(S::NAME, &S::DOC, &(S::OUTPUT)(), false, device.filter(|_| S::ON_DEVICE)))
    }
}

impl<S: AggregateSpec> AggregateUDFImpl for Aggregate<S> {
    delegate_common!();

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok((S::OUTPUT)())
    }

    fn accumulator(&self, acc_args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        // Where no plan-time check ran (a plan built without the optimizer,
        // a foreign engine through datafusion-ffi), the refusal comes here.
        if acc_args.is_distinct {
            return Err(distinct_error(S::NAME));
        }
        S::accumulator(&acc_args, self.0.device)
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(S::state_fields(&args))
    }

    fn simplify(&self) -> Option<AggregateFunctionSimplification> {
        let bind = S::ON_DEVICE.then(|| {
            bind_device(
                self.0.device,
                |d| AggregateUDF::from(Self::on(d)),
                Expr::AggregateFunction,
                |f, g| Expr::AggregateFunction(AggregateFunction { func: Arc::new(g), params: f.params }),
            )
        });
        Some(Box::new(move |f: AggregateFunction, ctx| {
            if f.params.distinct {
                return Err(distinct_error(S::NAME));
            }
            match &bind {
                Some(bind) => bind(f, ctx),
                None => Ok(Expr::AggregateFunction(f)),
            }
        }))
    }
}

/// The error of a call with `DISTINCT`. A corpus score is over the rows
/// as given (each segment counts, repeated or not, and the float sums run
/// in row order), so `DISTINCT` is refused rather than honoured in some
/// order of `DataFusion`'s choosing; the message says how to get it.
pub(crate) fn distinct_error(name: &str) -> datafusion::error::DataFusionError {
    datafusion::error::DataFusionError::Plan(format!(
        "{name} does not take DISTINCT: it scores every row it is given. To score each distinct row once, select \
         them first: SELECT {name}(h, r) FROM (SELECT DISTINCT h, r FROM t)"
    ))
}

/// A window function's spec (mteval's window functions run on a device).
pub trait WindowSpec: Send + Sync + 'static {
    /// The SQL name.
    const NAME: &'static str;
    /// Its documentation.
    const DOC: FunctionDoc;
    /// Checks and coerces the argument types where the documented
    /// arguments cannot (default: [`coerce_args`] over them).
    const COERCE: Option<Coerce> = None;
    /// The result type (default: a score, float64).
    const OUTPUT: Output = || DataType::Float64;
    /// A new evaluator, running on `device` (`None`: `auto`).
    ///
    /// # Errors
    /// Invalid options, naming them.
    fn evaluator(args: &PartitionEvaluatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn PartitionEvaluator>>;
}

/// A window UDF made of a [`WindowSpec`], bound to a device.
pub struct Window<S>(Parts<S>);

impl<S: WindowSpec> Window<S> {
    /// This function, bound to `device` (`None`: `auto`).
    #[must_use]
    pub fn on(device: Option<DeviceRequest>) -> Self {
        Self(Parts::new(S::NAME, &S::DOC, &(S::OUTPUT)(), true, device))
    }
}

impl<S: WindowSpec> WindowUDFImpl for Window<S> {
    delegate_common!();

    fn partition_evaluator(&self, args: PartitionEvaluatorArgs) -> Result<Box<dyn PartitionEvaluator>> {
        S::evaluator(&args, self.0.device)
    }

    fn simplify(&self) -> Option<WindowFunctionSimplification> {
        let bind = bind_device(
            self.0.device,
            |d| WindowUDF::from(Self::on(d)),
            Expr::from,
            |f: WindowFunction, g| {
                Expr::from(WindowFunction { fun: WindowFunctionDefinition::WindowUDF(Arc::new(g)), params: f.params })
            },
        );
        // `DataFusion` plans `f(DISTINCT x) OVER (...)` of a window function
        // and then ignores the DISTINCT: refused here, when it is planned.
        Some(Box::new(move |f: WindowFunction, ctx| {
            if f.params.distinct {
                return Err(distinct_error(S::NAME));
            }
            bind(f, ctx)
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(field_args.name(), (S::OUTPUT)(), true)))
    }
}

/// `on(None)`, `device()`, equality, hashing and `Debug` of the three
/// wrappers: two instances are equal when they are bound to the same device
/// (`DataFusion`'s `dyn` comparison has already matched the spec type).
macro_rules! wrapper_traits {
    ($($wrapper:ident: $spec:ident),*) => {$(
        impl<S: $spec> $wrapper<S> {
            /// The device bound into this function (`None`: `auto`, or a
            /// function that runs on no device).
            #[must_use]
            pub fn device(&self) -> Option<DeviceRequest> {
                self.0.device
            }
        }

        impl<S: $spec> PartialEq for $wrapper<S> {
            fn eq(&self, other: &Self) -> bool {
                self.0.device == other.0.device
            }
        }

        impl<S: $spec> Eq for $wrapper<S> {}

        impl<S: $spec> Hash for $wrapper<S> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                S::NAME.hash(state);
                self.0.device.hash(state);
            }
        }

        impl<S: $spec> fmt::Debug for $wrapper<S> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($wrapper)).field("name", &S::NAME).field("device", &self.0.device).finish()
            }
        }
    )*};
}

wrapper_traits!(Scalar: ScalarSpec, Aggregate: AggregateSpec, Window: WindowSpec);

impl<S: AggregateSpec> Default for Aggregate<S> {
    fn default() -> Self {
        Self::on(None)
    }
}

impl<S: WindowSpec> Default for Window<S> {
    fn default() -> Self {
        Self::on(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARGS: &[Arg] = &[
        Arg::new("score", Kind::Number, "s"),
        Arg::new("n", Kind::Integer, "n"),
        Arg::new("system", Kind::Key, "k").optional(),
        ARG_OPTIONS,
    ];
    const DOC: FunctionDoc = FunctionDoc { description: "d", arguments: ARGS, example: "", related: &[] };

    #[test]
    fn the_syntax_is_derived_from_the_arguments_and_the_result() {
        let out = DataType::Struct(
            vec![
                Field::new("score", DataType::Float64, true),
                Field::new("stats", list_of(DataType::Int64, true), true),
                Field::new("signature", DataType::Utf8, true),
            ]
            .into(),
        );
        assert_eq!(
            DOC.syntax("f", &out, false),
            "f(score: float64, n: int64, system?: any, options?: str) -> struct{score: float64, stats: list<int64>, \
             signature: str}"
        );
        assert_eq!(
            FunctionDoc { arguments: METRIC_ARGS, ..DOC }.syntax("g", &DataType::Float64, true),
            "g(hyp: str, ref: str | list<str>, options?: str) OVER (PARTITION BY ...) -> float64"
        );
        assert_eq!(shape(ARGS), "(score, n [, system] [, options])");
        assert_eq!(shape(&[ARG_OPTIONS, ARG_OPTIONS]), "([options] [, options])");
    }

    #[test]
    fn arguments_are_coerced_as_their_kind_says() {
        use DataType::{Float64, Int8, Int64, LargeUtf8, Null, UInt32, Utf8};
        let ok = |t: &[DataType]| coerce_args("f", ARGS, t).unwrap();
        let err = |t: &[DataType]| coerce_args("f", ARGS, t).unwrap_err().to_string();
        assert_eq!(ok(&[Int8, UInt32]), [Float64, Int64]);
        assert_eq!(ok(&[Null, Null, Float64, LargeUtf8]), [Float64, Int64, Utf8, Utf8]);
        assert!(
            err(&[Int8]).contains("f takes (score, n [, system] [, options]), got 1 arguments"),
            "{}",
            err(&[Int8])
        );
        assert!(err(&[Int8, Int8, Int8, Utf8, Utf8]).contains("got 5 arguments"));
        assert!(err(&[Utf8, Int8]).contains("f: score must be a number column, got Utf8"));
        assert!(err(&[Int8, Float64]).contains("f: n must be an integer, got Float64"));
        assert!(err(&[Int8, Int8, Int8, Int8]).contains("f: options must be a string literal"));
        let ints = Arg::new("c", Kind::Integers, "c");
        assert_eq!(ints.kind.coerce("f", "c", &list_of(Int8, false)).unwrap(), list_of(Int64, true));
        assert!(ints.kind.coerce("f", "c", &Int64).unwrap_err().to_string().contains("c must be a list of integers"));
        // Text keeps its string type; the reference takes a list of strings.
        assert_eq!(coerce_args("f", METRIC_ARGS, &[LargeUtf8, list_of(Utf8, true)]).unwrap()[0], LargeUtf8);
        assert!(
            coerce_args("f", METRIC_ARGS, &[Int64, Utf8]).unwrap_err().to_string().contains("hyp must be a string")
        );
    }
}
