//! How an mteval SQL function is declared, written once.
//!
//! A function is a small spec type (its name, documentation, argument
//! coercion, result type and evaluation) implementing [`ScalarSpec`],
//! [`AggregateSpec`] or [`WindowSpec`]; [`Scalar`], [`Aggregate`] and
//! [`Window`] turn a spec into DataFusion's `ScalarUDFImpl`,
//! `AggregateUDFImpl` and `WindowUDFImpl`. The generic parts live here: the
//! user-defined signature, the `Documentation` that `SHOW FUNCTIONS` and
//! `information_schema.routines` print, the plan-time check of the options,
//! and for functions that run on a device the binding of the session's
//! `mteval.device` into the plan (see [`crate::common::bind_aggregate`]).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::Result;
use datafusion::logical_expr::function::{
    AccumulatorArgs, AggregateFunctionSimplification, PartitionEvaluatorArgs, StateFieldsArgs,
    WindowFunctionSimplification, WindowUDFFieldArgs,
};
use datafusion::logical_expr::{
    Accumulator, AggregateUDF, AggregateUDFImpl, ColumnarValue, DocSection, Documentation, PartitionEvaluator,
    ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility, WindowUDF, WindowUDFImpl,
};
use mteval_kernels::backend::DeviceRequest;

use crate::common::{bind_aggregate, bind_window, coerce_metric_args};

/// The documentation section of every mteval function.
pub const DOC_SECTION: DocSection =
    DocSection { include: true, label: "MT evaluation functions", description: Some("mteval's metrics") };

/// A function's documentation, as constants; [`FunctionDoc::build`] makes
/// DataFusion's `Documentation` of it.
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
    /// DataFusion's `Documentation` of it.
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

/// A scalar function's spec.
pub trait ScalarSpec: Send + Sync + 'static {
    /// The SQL name.
    const NAME: &'static str;
    /// Its documentation.
    const DOC: FunctionDoc;
    /// Coerces the argument types (default: `(hyp, ref [, options])`).
    ///
    /// # Errors
    /// Arguments the function does not take, naming them.
    fn coerce(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(Self::NAME, arg_types)
    }
    /// The result type.
    fn output_type() -> DataType;
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

/// A scalar UDF made of a [`ScalarSpec`].
pub struct Scalar<S> {
    signature: Signature,
    doc: Documentation,
    spec: PhantomData<fn() -> S>,
}

impl<S: ScalarSpec> Default for Scalar<S> {
    fn default() -> Self {
        Self { signature: Signature::user_defined(Volatility::Immutable), doc: S::DOC.build(), spec: PhantomData }
    }
}

impl<S: ScalarSpec> ScalarUDFImpl for Scalar<S> {
    fn name(&self) -> &str {
        S::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        S::coerce(arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(S::output_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        S::check(&args)?;
        Ok(Arc::new(Field::new(S::NAME, S::output_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        S::invoke(&args)
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.doc)
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
    /// Coerces the argument types (default: `(hyp, ref [, options])`).
    ///
    /// # Errors
    /// Arguments the function does not take, naming them.
    fn coerce(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(Self::NAME, arg_types)
    }
    /// The result type.
    fn output_type() -> DataType;
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
pub struct Aggregate<S> {
    signature: Signature,
    doc: Documentation,
    device: Option<DeviceRequest>,
    spec: PhantomData<fn() -> S>,
}

impl<S: AggregateSpec> Aggregate<S> {
    /// This function, bound to `device` (`None`: `auto`).
    #[must_use]
    pub fn on(device: Option<DeviceRequest>) -> Self {
        Self {
            signature: Signature::user_defined(Volatility::Immutable),
            doc: S::DOC.build(),
            device: device.filter(|_| S::ON_DEVICE),
            spec: PhantomData,
        }
    }

    /// The device bound into this function (`None`: `auto`, or a function
    /// that runs on no device).
    #[must_use]
    pub fn device(&self) -> Option<DeviceRequest> {
        self.device
    }
}

impl<S: AggregateSpec> Default for Aggregate<S> {
    fn default() -> Self {
        Self::on(None)
    }
}

impl<S: AggregateSpec> AggregateUDFImpl for Aggregate<S> {
    fn name(&self) -> &str {
        S::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        S::coerce(arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(S::output_type())
    }

    fn accumulator(&self, acc_args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        S::accumulator(&acc_args, self.device)
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(S::state_fields(&args))
    }

    fn simplify(&self) -> Option<AggregateFunctionSimplification> {
        if !S::ON_DEVICE {
            return None;
        }
        bind_aggregate(S::NAME, self.device, |d| AggregateUDF::from(Self::on(d)))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.doc)
    }
}

/// A window function's spec (mteval's window functions run on a device).
pub trait WindowSpec: Send + Sync + 'static {
    /// The SQL name.
    const NAME: &'static str;
    /// Its documentation.
    const DOC: FunctionDoc;
    /// Coerces the argument types.
    ///
    /// # Errors
    /// Arguments the function does not take, naming them.
    fn coerce(arg_types: &[DataType]) -> Result<Vec<DataType>>;
    /// The output field.
    fn field(args: &WindowUDFFieldArgs) -> FieldRef;
    /// A new evaluator, running on `device` (`None`: `auto`).
    ///
    /// # Errors
    /// Invalid options, naming them.
    fn evaluator(args: &PartitionEvaluatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn PartitionEvaluator>>;
}

/// A window UDF made of a [`WindowSpec`], bound to a device.
pub struct Window<S> {
    signature: Signature,
    doc: Documentation,
    device: Option<DeviceRequest>,
    spec: PhantomData<fn() -> S>,
}

impl<S: WindowSpec> Window<S> {
    /// This function, bound to `device` (`None`: `auto`).
    #[must_use]
    pub fn on(device: Option<DeviceRequest>) -> Self {
        Self {
            signature: Signature::user_defined(Volatility::Immutable),
            doc: S::DOC.build(),
            device,
            spec: PhantomData,
        }
    }

    /// The device bound into this function (`None`: `auto`).
    #[must_use]
    pub fn device(&self) -> Option<DeviceRequest> {
        self.device
    }
}

impl<S: WindowSpec> Default for Window<S> {
    fn default() -> Self {
        Self::on(None)
    }
}

impl<S: WindowSpec> WindowUDFImpl for Window<S> {
    fn name(&self) -> &str {
        S::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        S::coerce(arg_types)
    }

    fn partition_evaluator(&self, args: PartitionEvaluatorArgs) -> Result<Box<dyn PartitionEvaluator>> {
        S::evaluator(&args, self.device)
    }

    fn simplify(&self) -> Option<WindowFunctionSimplification> {
        bind_window(S::NAME, self.device, |d| WindowUDF::from(Self::on(d)))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(S::field(&field_args))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.doc)
    }
}

/// Equality, hashing and `Debug` of the three wrappers: the spec type (which
/// DataFusion's `dyn` comparison already matched) and the bound device.
macro_rules! wrapper_traits {
    ($($wrapper:ident: $spec:ident => $device:expr;)*) => {$(
        impl<S: $spec> PartialEq for $wrapper<S> {
            fn eq(&self, other: &Self) -> bool {
                let device: fn(&Self) -> Option<DeviceRequest> = $device;
                device(self) == device(other)
            }
        }

        impl<S: $spec> Eq for $wrapper<S> {}

        impl<S: $spec> Hash for $wrapper<S> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                S::NAME.hash(state);
                let device: fn(&Self) -> Option<DeviceRequest> = $device;
                device(self).hash(state);
            }
        }

        impl<S: $spec> fmt::Debug for $wrapper<S> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let device: fn(&Self) -> Option<DeviceRequest> = $device;
                f.debug_struct(stringify!($wrapper)).field("name", &S::NAME).field("device", &device(self)).finish()
            }
        }
    )*};
}

wrapper_traits! {
    Scalar: ScalarSpec => |_| None;
    Aggregate: AggregateSpec => |a| a.device;
    Window: WindowSpec => |w| w.device;
}
