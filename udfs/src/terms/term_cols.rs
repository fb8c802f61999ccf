//! Arrow plumbing of the terminology functions: the term lists
//! ([`TermsCol`], `List<List<Utf8>>`), the lemma lists ([`LemmasCol`]), and
//! the arguments of either variant ([`TermArgs`]), read into per-row counts.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, GenericListArray, Int64Array, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Int64Type};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::ColumnarValue;
use mteval_kernels::MetricError;
use mteval_kernels::terms::{Lemma, TermCounts, count_matches, count_matches_exact};

use crate::common::{StrCol, map_rows};

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
///
/// # Errors
/// A type that is not a list of lists of strings.
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
    ///
    /// # Errors
    /// A value that is not a list of lists of strings.
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
    ///
    /// # Errors
    /// An array that is not a list of lists of strings.
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
    #[must_use]
    pub fn is_scalar(&self) -> bool {
        self.broadcast
    }

    /// The terms of row `i` into `out` (one `Vec` of alternatives per term);
    /// `false` when the row or one of its terms is NULL.
    #[allow(clippy::cast_sign_loss, reason = "Arrow list offsets are never negative")]
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
///
/// # Errors
/// A type that is not a list of such structs.
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
    ///
    /// # Errors
    /// A value that is not a list of lemma structs.
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
    ///
    /// # Errors
    /// An array that is not a list of structs with a string `lemma` and integer
    /// `start` and `end` fields.
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
            if let Some(c) = structs.column_by_name(n) {
                Ok(c)
            } else {
                exec_err!("{name}: the lemma structs have no field '{n}'")
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
    #[must_use]
    pub fn is_scalar(&self) -> bool {
        self.broadcast
    }

    /// The lemmas of row `i` into `out`; `Ok(false)` when the row is NULL.
    ///
    /// # Errors
    /// A NULL word, a NULL or negative offset.
    #[allow(clippy::cast_sign_loss, reason = "Arrow list offsets are never negative")]
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

/// The arguments of a terminology function, as their documented `Arg`s
/// typed them: `(hyp, terms)`, or with lemmas, `(hyp, lemmas, terms)`.
pub(crate) struct TermArgs<'a> {
    hyp: StrCol<'a>,
    lemmas: Option<LemmasCol<'a>>,
    terms: TermsCol<'a>,
}

impl<'a> TermArgs<'a> {
    /// Wraps the arguments; `lemmatized` says whether `args[1]` is the lemmas.
    pub(crate) fn new(name: &str, lemmatized: bool, args: &'a [ColumnarValue]) -> Result<Self> {
        let hyp = StrCol::new(name, &args[0])?;
        let lemmas = if lemmatized { Some(LemmasCol::new(name, &args[1])?) } else { None };
        Ok(Self { hyp, lemmas, terms: TermsCol::new(name, &args[usize::from(lemmatized) + 1])? })
    }

    /// Whether every argument is a constant (the result is one value).
    pub(crate) fn is_scalar(&self) -> bool {
        self.hyp.is_scalar() && self.terms.is_scalar() && self.lemmas.as_ref().is_none_or(LemmasCol::is_scalar)
    }

    /// The counts of rows `0..n`: [`lemmatized_rows`] or [`exact_rows`].
    pub(crate) fn rows(&self, name: &str, n: usize) -> Result<Vec<Option<TermCounts>>> {
        match &self.lemmas {
            Some(lemmas) => lemmatized_rows(name, &self.hyp, lemmas, &self.terms, n),
            None => exact_rows(name, &self.hyp, &self.terms, n),
        }
    }
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

/// Exact and lemmatized term counts of rows `0..n` (NULL inputs → `None`).
///
/// # Errors
/// The reference's lemma-mapping assertions and bad lemma structs, naming the row.
pub fn lemmatized_rows(
    name: &str,
    hyp: &StrCol<'_>,
    lemmas: &LemmasCol<'_>,
    terms: &TermsCol<'_>,
    n: usize,
) -> Result<Vec<Option<TermCounts>>> {
    map_rows(name, n, |i| {
        let (mut t, mut l) = (Vec::new(), Vec::new());
        let Some(h) = hyp.get(i) else { return Ok(None) };
        if !terms.get(i, &mut t) || !lemmas.get(i, &mut l)? {
            return Ok(None);
        }
        count_matches(h, &l, &t).map(Some)
    })
}
