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

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::Result;
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

use crate::common::{bind_device, coerce_metric_args};

/// The documentation section of every mteval function.
pub const DOC_SECTION: DocSection =
    DocSection { include: true, label: "MT evaluation functions", description: Some("mteval's metrics") };

/// A function's documentation, as constants; [`FunctionDoc::build`] makes
/// `DataFusion`'s `Documentation` of it.
#[derive(Debug, Clone, Copy)]
pub struct FunctionDoc {
    /// What it computes, in a few sentences (the first is the summary).
    pub description: &'static str,
    /// The call with its argument and result types, e.g.
    /// `ter(hyp, ref [, options]) -> Float64`.
    pub syntax: &'static str,
    /// Each argument with what it takes.
    pub arguments: &'static [(&'static str, &'static str)],
    /// An SQL example.
    pub example: &'static str,
    /// Related functions.
    pub related: &'static [&'static str],
}

impl FunctionDoc {
    /// `DataFusion`'s `Documentation` of it.
    #[must_use]
    pub fn build(&self) -> Documentation {
        let mut b = Documentation::builder(DOC_SECTION, self.description, self.syntax)
            .with_sql_example(format!("```sql\n{}\n```", self.example));
        for (name, what) in self.arguments {
            b = b.with_argument(*name, *what);
        }
        for r in self.related {
            b = b.with_related_udf(*r);
        }
        b.build()
    }
}

/// How a function checks and coerces its argument types (given its name,
/// for the errors).
pub type Coerce = fn(&str, &[DataType]) -> Result<Vec<DataType>>;

/// A function's result type.
pub type Output = fn() -> DataType;

/// The argument `hyp` of the metric functions.
pub const ARG_HYP: (&str, &str) = ("hyp", "The hypothesis (system output): a string column.");
/// The argument `ref` of the metric functions.
pub const ARG_REF: (&str, &str) =
    ("ref", "The reference: a string, or a list of strings (several references; NULL elements are skipped).");
/// The argument `options` of the metric functions.
pub const ARG_OPTIONS: (&str, &str) = (
    "options",
    "Optional constant string of `key:value` pairs separated by `|`, in the signature's syntax (see the README's \
     option tables); a signature pastes back as options.",
);

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
    /// Checks and coerces the argument types (default: `(hyp, ref [, options])`).
    const COERCE: Coerce = coerce_metric_args;
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
    fn new(doc: &FunctionDoc, device: Option<DeviceRequest>) -> Self {
        Self { signature: Signature::user_defined(Volatility::Immutable), doc: doc.build(), device, spec: PhantomData }
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
            (S::COERCE)(S::NAME, arg_types)
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
        Self(Parts::new(&S::DOC, None))
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
    /// Checks and coerces the argument types (default: `(hyp, ref [, options])`).
    const COERCE: Coerce = coerce_metric_args;
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
        Self(Parts::new(&S::DOC, device.filter(|_| S::ON_DEVICE)))
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
    /// Checks and coerces the argument types.
    const COERCE: Coerce;
    /// The output field.
    fn field(args: &WindowUDFFieldArgs) -> FieldRef;
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
        Self(Parts::new(&S::DOC, device))
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
        Ok(S::field(&field_args))
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
