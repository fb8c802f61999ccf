//! `term_match(hyp, terms) -> Struct{matched, total, dropped}`: terminology
//! match counts of one prediction, exact variant (CBS `match_accuracy`,
//! `maximally_match`). `terms` is `List<List<Utf8>>`: one inner list per term,
//! holding its alternatives. `dropped` marks an empty or whitespace-only
//! prediction, which matches nothing and which the corpus accuracy leaves out
//! of its denominator. A NULL hypothesis, a NULL term list or a NULL term
//! gives NULL; NULL alternatives are skipped.
//!
//! Also home of the Arrow plumbing of the terminology functions: the term
//! lists ([`TermsCol`]) and the lemma lists ([`LemmasCol`]).

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, BooleanArray, GenericListArray, Int64Array, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Int64Type};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::MetricError;
use mteval_kernels::terms::{Lemma, TermCounts, count_matches_exact};

use crate::common::{StrCol, coerce_string, map_rows};

/// The canonical type of a term list: `List<List<Utf8View>>`.
#[must_use]
pub fn terms_type() -> DataType {
    let inner = DataType::List(Arc::new(Field::new_list_field(DataType::Utf8View, true)));
    DataType::List(Arc::new(Field::new_list_field(inner, true)))
}

fn list_child(t: &DataType) -> Option<&DataType> {
    match t {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => Some(f.data_type()),
        _ => None,
    }
}

/// Maps the terms argument (any list of lists of strings) to [`terms_type`].
pub fn coerce_terms(name: &str, t: &DataType) -> Result<DataType> {
    let ok = list_child(t)
        .and_then(list_child)
        .is_some_and(|v| matches!(v, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null));
    if ok || matches!(t, DataType::Null) {
        Ok(terms_type())
    } else {
        plan_err!(
            "{name}: terms must be a list of terms, each a list of alternative strings (List<List<Utf8>>), got {t}"
        )
    }
}

/// The terms argument: per row, a list of terms, each a list of alternatives.
pub struct TermsCol<'a> {
    outer: Option<&'a GenericListArray<i32>>,
    inner: Option<&'a GenericListArray<i32>>,
    values: StrCol<'a>,
    broadcast: bool,
}

impl<'a> TermsCol<'a> {
    /// Wraps an array (or a broadcast scalar) of [`terms_type`].
    pub fn new(name: &str, v: &'a ColumnarValue) -> Result<Self> {
        match v {
            ColumnarValue::Array(a) => Self::from_array(name, a, false),
            ColumnarValue::Scalar(ScalarValue::List(l)) => Self::from_list(name, l.as_ref(), true),
            ColumnarValue::Scalar(s) if s.is_null() => {
                Ok(Self { outer: None, inner: None, values: StrCol::Scalar(None), broadcast: true })
            }
            ColumnarValue::Scalar(s) => exec_err!("{name}: terms must be a list of lists of strings, got {s}"),
        }
    }

    /// Wraps an array of [`terms_type`] (aggregates receive arrays).
    pub fn from_array(name: &str, a: &'a ArrayRef, broadcast: bool) -> Result<Self> {
        match a.data_type() {
            DataType::List(_) => Self::from_list(name, a.as_list::<i32>(), broadcast),
            DataType::Null => Ok(Self { outer: None, inner: None, values: StrCol::Scalar(None), broadcast }),
            t => exec_err!("{name}: terms must be List<List<Utf8>>, got {t}"),
        }
    }

    fn from_list(name: &str, outer: &'a GenericListArray<i32>, broadcast: bool) -> Result<Self> {
        let Some(inner) = outer.values().as_list_opt::<i32>() else {
            return exec_err!("{name}: terms must be List<List<Utf8>>, got {}", outer.data_type());
        };
        Ok(Self {
            outer: Some(outer),
            inner: Some(inner),
            values: StrCol::from_array(name, inner.values().as_ref())?,
            broadcast,
        })
    }

    /// Whether this is a constant.
    pub fn is_scalar(&self) -> bool {
        self.broadcast
    }

    /// The terms of row `i` into `out` (one `Vec` of alternatives per term);
    /// `false` when the row or one of its terms is NULL.
    #[allow(clippy::cast_sign_loss)]
    pub fn get(&self, i: usize, out: &mut Vec<Vec<&'a str>>) -> bool {
        out.clear();
        let (Some(outer), Some(inner)) = (self.outer, self.inner) else { return false };
        let i = if self.broadcast { 0 } else { i };
        if !outer.is_valid(i) {
            return false;
        }
        let offs = outer.value_offsets();
        for t in offs[i] as usize..offs[i + 1] as usize {
            if !inner.is_valid(t) {
                return false;
            }
            let io = inner.value_offsets();
            out.push((io[t] as usize..io[t + 1] as usize).filter_map(|k| self.values.get(k)).collect());
        }
        true
    }
}

/// Maps the lemmas argument: a list of structs with fields `lemma` (string),
/// `start` and `end` (integers), in any order and with any further fields.
pub fn coerce_lemmas(name: &str, t: &DataType) -> Result<DataType> {
    let ok = match list_child(t) {
        Some(DataType::Struct(fields)) => ["lemma", "start", "end"].iter().all(|n| {
            fields.iter().any(|f| {
                f.name() == n
                    && if *n == "lemma" {
                        matches!(
                            f.data_type(),
                            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null
                        )
                    } else {
                        f.data_type().is_integer() || f.data_type().is_null()
                    }
            })
        }),
        _ => matches!(t, DataType::Null),
    };
    if ok {
        Ok(t.clone())
    } else {
        plan_err!(
            "{name}: lemmas must be a list of structs {{lemma: string, start: integer, end: integer}} \
             (code-point offsets of each word in the hypothesis), got {t}"
        )
    }
}

/// The lemmas argument: per row, the lemmatized words of the prediction.
pub struct LemmasCol<'a> {
    list: Option<&'a GenericListArray<i32>>,
    structs: Option<&'a StructArray>,
    lemma: StrCol<'a>,
    start: Int64Array,
    end: Int64Array,
    broadcast: bool,
}

impl<'a> LemmasCol<'a> {
    /// Wraps the lemmas argument.
    pub fn new(name: &str, v: &'a ColumnarValue) -> Result<Self> {
        match v {
            ColumnarValue::Array(a) => Self::from_array(name, a, false),
            ColumnarValue::Scalar(ScalarValue::List(l)) => Self::from_list(name, l.as_ref(), true),
            ColumnarValue::Scalar(s) if s.is_null() => Ok(Self::null()),
            ColumnarValue::Scalar(s) => exec_err!("{name}: lemmas must be a list of structs, got {s}"),
        }
    }

    fn null() -> Self {
        Self {
            list: None,
            structs: None,
            lemma: StrCol::Scalar(None),
            start: Int64Array::from(Vec::<i64>::new()),
            end: Int64Array::from(Vec::<i64>::new()),
            broadcast: true,
        }
    }

    /// Wraps an array of lemma lists.
    pub fn from_array(name: &str, a: &'a ArrayRef, broadcast: bool) -> Result<Self> {
        match a.data_type() {
            DataType::List(_) => Self::from_list(name, a.as_list::<i32>(), broadcast),
            DataType::Null => Ok(Self::null()),
            t => exec_err!("{name}: lemmas must be a List<Struct{{lemma, start, end}}>, got {t}"),
        }
    }

    fn from_list(name: &str, list: &'a GenericListArray<i32>, broadcast: bool) -> Result<Self> {
        let Some(structs) = list.values().as_struct_opt() else {
            return exec_err!("{name}: lemmas must be a List<Struct{{lemma, start, end}}>, got {}", list.data_type());
        };
        let col = |n: &str| -> Result<&'a ArrayRef> {
            match structs.column_by_name(n) {
                Some(c) => Ok(c),
                None => exec_err!("{name}: the lemma structs have no field '{n}'"),
            }
        };
        let int = |n: &str| -> Result<Int64Array> {
            let c = cast(col(n)?, &DataType::Int64)?;
            Ok(c.as_primitive::<Int64Type>().clone())
        };
        Ok(Self {
            list: Some(list),
            structs: Some(structs),
            lemma: StrCol::from_array(name, col("lemma")?.as_ref())?,
            start: int("start")?,
            end: int("end")?,
            broadcast,
        })
    }

    /// Whether this is a constant.
    pub fn is_scalar(&self) -> bool {
        self.broadcast
    }

    /// The lemmas of row `i` into `out`; `Ok(false)` when the row is NULL.
    ///
    /// # Errors
    /// A NULL word, a NULL or negative offset.
    #[allow(clippy::cast_sign_loss)]
    pub fn get(&self, i: usize, out: &mut Vec<Lemma<'a>>) -> Result<bool, MetricError> {
        out.clear();
        let (Some(list), Some(structs)) = (self.list, self.structs) else { return Ok(false) };
        let i = if self.broadcast { 0 } else { i };
        if !list.is_valid(i) {
            return Ok(false);
        }
        let offs = list.value_offsets();
        for (w, k) in (offs[i] as usize..offs[i + 1] as usize).enumerate() {
            let bad = |what: &str| MetricError::InvalidInput {
                metric: "term accuracy",
                reason: format!("lemma {w}: {what}"),
            };
            if !structs.is_valid(k) {
                return Err(bad("is NULL"));
            }
            if !self.start.is_valid(k) || !self.end.is_valid(k) {
                return Err(bad("start or end is NULL"));
            }
            let (s, e) = (self.start.value(k), self.end.value(k));
            let (Ok(s), Ok(e)) = (usize::try_from(s), usize::try_from(e)) else {
                return Err(bad(&format!("negative offset ({s}, {e})")));
            };
            out.push(Lemma { lemma: self.lemma.get(k), start: s, end: e });
        }
        Ok(true)
    }
}

/// Fields of the `term_match` result.
#[must_use]
pub fn term_match_fields() -> Fields {
    Fields::from(vec![
        Field::new("matched", DataType::Int64, false),
        Field::new("total", DataType::Int64, false),
        Field::new("dropped", DataType::Boolean, false),
    ])
}

/// Builds the result column (or scalar) from per-row counts.
///
/// # Errors
/// Only if Arrow rejects the struct.
pub fn counts_to_value(
    fields: Fields,
    vals: &[Option<TermCounts>],
    matched: fn(&TermCounts) -> u32,
    with_exact: bool,
    single: bool,
) -> Result<ColumnarValue> {
    let nulls = datafusion::arrow::buffer::NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
    let ints = |f: &dyn Fn(&TermCounts) -> u32| -> ArrayRef {
        Arc::new(Int64Array::from(vals.iter().map(|v| v.as_ref().map_or(0, |c| i64::from(f(c)))).collect::<Vec<_>>()))
    };
    let mut cols: Vec<ArrayRef> = vec![ints(&|c| matched(c))];
    if with_exact {
        cols.push(ints(&|c| c.exact));
    }
    cols.push(ints(&|c| c.total));
    cols.push(Arc::new(BooleanArray::from(
        vals.iter().map(|v| v.as_ref().is_some_and(|c| c.dropped)).collect::<Vec<_>>(),
    )));
    let arr = StructArray::try_new(fields, cols, Some(nulls))?;
    if single {
        return Ok(ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(arr))));
    }
    Ok(ColumnarValue::Array(Arc::new(arr)))
}

/// Exact term counts of rows `0..n` (NULL hypothesis, term list or term → `None`).
///
/// # Errors
/// Only Arrow-level problems (the exact variant has no failing input).
pub fn exact_rows(name: &str, hyp: &StrCol<'_>, terms: &TermsCol<'_>, n: usize) -> Result<Vec<Option<TermCounts>>> {
    map_rows(name, n, |i| {
        let mut t = Vec::new();
        let Some(h) = hyp.get(i) else { return Ok(None) };
        Ok(terms.get(i, &mut t).then(|| count_matches_exact(h, &t)))
    })
}

crate::udf_struct!(
    /// The `term_match` scalar UDF.
    TermMatchUdf
);

impl ScalarUDFImpl for TermMatchUdf {
    fn name(&self) -> &'static str {
        "term_match"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, t: &[DataType]) -> Result<Vec<DataType>> {
        if t.len() != 2 {
            return plan_err!("term_match takes (hyp, terms), got {} arguments", t.len());
        }
        Ok(vec![coerce_string(self.name(), "the hypothesis", &t[0])?, coerce_terms(self.name(), &t[1])?])
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Struct(term_match_fields()))
    }

    fn return_field_from_args(&self, _args: datafusion::logical_expr::ReturnFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(self.name(), DataType::Struct(term_match_fields()), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = self.name();
        let hyp = StrCol::new(name, &args.args[0])?;
        let terms = TermsCol::new(name, &args.args[1])?;
        let single = hyp.is_scalar() && terms.is_scalar();
        let n = if single { 1 } else { args.number_rows };
        let vals = exact_rows(name, &hyp, &terms, n)?;
        counts_to_value(term_match_fields(), &vals, |c| c.exact, false, single)
    }
}
