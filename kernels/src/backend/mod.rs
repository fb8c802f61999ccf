//! Compute backends for the hot loops: batched edit distance, the scoring of
//! TER shift candidates, and chrF n-gram matching.
//!
//! A [`Backend`] works on whole batches (flat `u32` symbols plus offsets) and
//! returns integer statistics only; every float (TER and chrF scores, the
//! choice of a best reference) is computed afterwards by the same host code
//! for every backend, so CPU and GPU scores are bit-identical.
//!
//! * [`CpuBackend`]: rayon over all cores (always available).
//! * [`GpuBackend`]: the CUDA C kernels in `kernels/cuda/*.cu`, launched
//!   through a [`KernelExec`]: [`cuda::CudaExec`] on a real GPU (NVRTC at run
//!   time, cudarc with dynamic loading, so machines without CUDA build and
//!   run), or [`emulate::EmuExec`], which runs the same kernel source on the
//!   CPU for tests on machines without a GPU.
//!
//! The metric entry points (`Ter::segments_on`, `ChrfConfig::segments_on`,
//! `Group::pairwise_map_on`, `levenshtein::char_distances_on`) take a
//! backend; on a GPU failure (out of memory, a kernel or driver error) they
//! recompute the batch on the CPU with a warning, so results are never wrong
//! or missing.

mod cpu;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod emulate;
mod gpu;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

pub use cpu::CpuBackend;
pub use gpu::{GpuBackend, KArg, KernelExec};

/// Why a backend could not run a batch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// No usable GPU (no driver, no NVRTC, no device, or CUDA support not built in).
    #[error("no usable GPU: {0}")]
    Unavailable(String),
    /// The GPU kernels do not cover this input (e.g. n-gram orders above 6);
    /// the batch runs on the CPU without a warning.
    #[error("not handled by the GPU kernels: {0}")]
    Unsupported(String),
    /// The device failed (out of memory, kernel or driver error).
    #[error("GPU error: {0}")]
    Device(String),
}

/// Sequences of `u32` symbols, stored flat: sequence `i` is
/// `data[offs[i] .. offs[i + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seqs {
    /// All symbols, one sequence after another.
    pub data: Vec<u32>,
    /// `len() + 1` offsets into `data`, starting at 0.
    pub offs: Vec<u64>,
}

impl Default for Seqs {
    fn default() -> Self {
        Self { data: Vec::new(), offs: vec![0] }
    }
}

impl Seqs {
    /// No sequences.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one sequence.
    pub fn push(&mut self, s: &[u32]) {
        self.data.extend_from_slice(s);
        self.offs.push(self.data.len() as u64);
    }

    /// Appends one sequence from an iterator.
    pub fn push_iter(&mut self, s: impl IntoIterator<Item = u32>) {
        self.data.extend(s);
        self.offs.push(self.data.len() as u64);
    }

    /// Number of sequences.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offs.len() - 1
    }

    /// Whether there are no sequences.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sequence `i`.
    #[must_use]
    #[allow(clippy::cast_possible_truncation, reason = "offsets index `data`, which is in memory")]
    pub fn get(&self, i: usize) -> &[u32] {
        &self.data[self.offs[i] as usize..self.offs[i + 1] as usize]
    }

    /// `n` sequences, sequence `i` being the symbols `f(i)` yields, built on
    /// all cores: lengths first, then every sequence written in place.
    pub fn from_fn_par<I, F>(n: usize, f: F) -> Self
    where
        I: Iterator<Item = u32>,
        F: Fn(usize) -> I + Sync,
    {
        use rayon::prelude::*;
        let lens: Vec<usize> = (0..n).into_par_iter().map(|i| f(i).count()).collect();
        Self::from_lens_par(&lens, f)
    }

    /// As [`Self::from_fn_par`] with the lengths already known: sequence `i`
    /// holds the first `lens[i]` symbols of `f(i)`.
    pub fn from_lens_par<I, F>(lens: &[usize], f: F) -> Self
    where
        I: Iterator<Item = u32>,
        F: Fn(usize) -> I + Sync,
    {
        use rayon::prelude::*;
        let n = lens.len();
        let mut offs = Vec::with_capacity(n + 1);
        let mut total = 0usize;
        offs.push(0u64);
        for &l in lens {
            total += l;
            offs.push(total as u64);
        }
        let mut data = vec![0u32; total];
        let mut parts = Vec::with_capacity(n);
        let mut rest = data.as_mut_slice();
        for &l in lens {
            let (head, tail) = rest.split_at_mut(l);
            parts.push(head);
            rest = tail;
        }
        parts.into_par_iter().enumerate().for_each(|(i, dst)| {
            for (d, c) in dst.iter_mut().zip(f(i)) {
                *d = c;
            }
        });
        Self { data, offs }
    }

    /// The sequences built from an iterator of slices.
    pub fn from_slices<'a>(it: impl IntoIterator<Item = &'a [u32]>) -> Self {
        let mut s = Self::new();
        for x in it {
            s.push(x);
        }
        s
    }
}

/// Strings as UTF-8, laid out for a device to decode: string `i`'s bytes
/// go packed four to a `u32` (little endian) from word `word_offs[i]` on,
/// each string starting on a fresh word, `byte_lens[i]` bytes long, holding
/// `cp_offs[i + 1] - cp_offs[i]` code points. The strings stay borrowed:
/// [`Texts::fill_words`] packs them straight into the memory an upload
/// sends from (pinned and reused on a GPU, see
/// [`KernelExec::upload_u32_with`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts<'a> {
    strs: Vec<&'a str>,
    /// `len() + 1` word offsets.
    pub word_offs: Vec<u64>,
    /// Each string's length in bytes.
    pub byte_lens: Vec<u32>,
    /// `len() + 1` offsets of each string's code points in the decoded text.
    pub cp_offs: Vec<u64>,
}

impl<'a> Texts<'a> {
    /// `n` strings, string `i` being `f(i)` with `code_points[i]` code
    /// points.
    ///
    /// # Errors
    /// A string of 2^32 bytes or more.
    pub fn from_fn_par<F>(n: usize, code_points: &[usize], f: F) -> Result<Self, BackendError>
    where
        F: Fn(usize) -> &'a str + Sync,
    {
        use rayon::prelude::*;
        let strs: Vec<&'a str> = (0..n).into_par_iter().map(&f).collect();
        let byte_lens: Vec<u32> = strs
            .iter()
            .map(|s| u32::try_from(s.len()))
            .collect::<Result<_, _>>()
            .map_err(|_| BackendError::Unsupported("a string of 4 GiB or more".into()))?;
        let mut word_offs = Vec::with_capacity(n + 1);
        let mut cp_offs = Vec::with_capacity(n + 1);
        let (mut w, mut c) = (0u64, 0u64);
        word_offs.push(0);
        cp_offs.push(0);
        for (&b, &k) in byte_lens.iter().zip(code_points) {
            w += u64::from(b.div_ceil(4));
            c += k as u64;
            word_offs.push(w);
            cp_offs.push(c);
        }
        Ok(Self { strs, word_offs, byte_lens, cp_offs })
    }

    /// Number of strings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.strs.len()
    }

    /// Whether there are no strings.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.strs.is_empty()
    }

    /// Words the packed bytes take.
    #[must_use]
    #[allow(clippy::cast_possible_truncation, reason = "the words hold strings that are in memory")]
    pub fn n_words(&self) -> usize {
        self.word_offs[self.len()] as usize
    }

    /// Code points of string `i`.
    #[must_use]
    #[allow(clippy::cast_possible_truncation, reason = "the code points are of strings in memory")]
    pub fn code_point_len(&self, i: usize) -> usize {
        (self.cp_offs[i + 1] - self.cp_offs[i]) as usize
    }

    /// Packs every string's bytes into `dst` ([`Self::n_words`] words), on
    /// all cores.
    ///
    /// # Panics
    /// When `dst` is shorter than [`Self::n_words`].
    pub fn fill_words(&self, dst: &mut [u32]) {
        use rayon::prelude::*;
        let mut parts = Vec::with_capacity(self.len());
        let mut rest = &mut dst[..self.n_words()];
        for s in &self.strs {
            let (head, tail) = rest.split_at_mut(s.len().div_ceil(4));
            parts.push(head);
            rest = tail;
        }
        parts.into_par_iter().zip(&self.strs).for_each(|(dst, s)| {
            let whole = s.as_bytes().chunks_exact(4);
            let tail = whole.remainder();
            for (d, c) in dst.iter_mut().zip(whole) {
                *d = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
            if !tail.is_empty() {
                let mut q = [0u8; 4];
                q[..tail.len()].copy_from_slice(tail);
                dst[dst.len() - 1] = u32::from_le_bytes(q);
            }
        });
    }

    /// Every string's code points (what a device's `utf8_decode` makes).
    #[must_use]
    pub fn code_points(&self) -> Seqs {
        let lens: Vec<usize> = (0..self.len()).map(|i| self.code_point_len(i)).collect();
        Seqs::from_lens_par(&lens, |i| self.strs[i].chars().map(u32::from))
    }
}

/// Symbols of a set of strings for chrF: per string its character symbols
/// (code points, whitespace removed unless kept) and its word ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NgramInput {
    /// Character symbols per string.
    pub chars: Seqs,
    /// Word ids per string (one id space for the whole input).
    pub words: Seqs,
    /// Character n-gram orders `1..=char_order`.
    pub char_order: u32,
    /// Word n-gram orders `1..=word_order`.
    pub word_order: u32,
}

impl NgramInput {
    /// Orders per string (character orders first).
    #[must_use]
    pub fn orders(&self) -> usize {
        (self.char_order + self.word_order) as usize
    }

    /// Number of strings.
    #[must_use]
    pub fn n_strings(&self) -> usize {
        self.chars.len()
    }

    /// The symbols and the n of order index `o` of string `s`.
    #[must_use]
    pub fn order_seq(&self, s: usize, o: usize) -> (&[u32], usize) {
        let co = self.char_order as usize;
        if o < co { (self.chars.get(s), o + 1) } else { (self.words.get(s), o - co + 1) }
    }

    /// Number of order-`o` windows of string `s`.
    #[must_use]
    pub fn total(&self, s: usize, o: usize) -> u64 {
        let (sym, n) = self.order_seq(s, o);
        (sym.len() + 1).saturating_sub(n) as u64
    }
}

/// A compute backend: batched integer statistics (see the module docs).
///
/// Every method returns exactly what [`CpuBackend`] returns for the same
/// input; a GPU backend may fail with a [`BackendError`] instead.
pub trait Backend: Send + Sync + fmt::Debug {
    /// A short description (`cpu (16 threads)`, `cuda: NVIDIA H100 ...`).
    fn name(&self) -> String;

    /// Whether this is a GPU backend (callers keep their CPU fast paths otherwise).
    fn is_gpu(&self) -> bool;

    /// Whether `work` goes to the device: the metric entry points ask this
    /// before batching for the GPU, and take their CPU path otherwise. A GPU
    /// backend asked for by name (`--device cuda`) takes everything; the
    /// `auto` device ([`AutoBackend`]) takes only what the measured table
    /// shows faster on the GPU.
    fn offload(&self, work: &Work) -> bool {
        let _ = work;
        self.is_gpu()
    }

    /// Unit-cost Levenshtein distance of `a[i]` and `b[i]` for every `i`.
    ///
    /// # Errors
    /// A device failure.
    fn edit_distances(&self, a: &Seqs, b: &Seqs) -> Result<Vec<u32>, BackendError>;

    /// [`Backend::edit_distances`] over the code points of UTF-8 strings (a GPU
    /// decodes them itself, so the host only packs the bytes).
    ///
    /// # Errors
    /// A device failure.
    fn edit_distances_text(&self, a: &Texts<'_>, b: &Texts<'_>) -> Result<Vec<u32>, BackendError> {
        self.edit_distances(&a.code_points(), &b.code_points())
    }

    /// TER's greedy shift search (sacrebleu's `translation_edit_rate`) of
    /// every pair `(hyps[i], refs[i])` of word ids: `(edits, shifts)` per
    /// pair, as [`crate::ter::shift::ter_pair`] gives them.
    ///
    /// # Errors
    /// A device failure.
    fn shift_search(&self, hyps: &Seqs, refs: &Seqs) -> Result<Vec<(u32, u32)>, BackendError>;

    /// Clipped n-gram matches `Σ_g min(count_h[g], count_r[g])` of the listed
    /// `(hypothesis, reference)` string pairs (`pairs` holds two indices per
    /// pair): `orders()` values per pair.
    ///
    /// # Errors
    /// A device failure, or orders the kernels do not cover.
    fn ngram_matches(&self, input: &NgramInput, pairs: &[u32]) -> Result<Vec<u32>, BackendError>;

    /// Clipped matches of every hypothesis of the grid against every
    /// reference: value `(j * refs.len() + k) * orders() + o`.
    ///
    /// # Errors
    /// As [`Backend::ngram_matches`].
    fn ngram_match_grid(&self, input: &NgramInput, grid: &Grid) -> Result<Vec<u32>, BackendError>;

    /// fastchrf's aggregate matches ([`Aggregate`]), hypothesis-major then
    /// by order.
    ///
    /// # Errors
    /// As [`Backend::ngram_matches`].
    fn ngram_aggregate(&self, input: &NgramInput, q: &Aggregate<'_>) -> Result<Vec<u64>, BackendError>;

    /// MBR's expected chrF utility of every hypothesis of `grid`, reduced
    /// where the matches are counted: for hypothesis `j`, numpy's mean over
    /// the references `k != q.skip[j]` of chrF(j, k) (`f_score` with
    /// `q.beta` and `q.eps_smoothing`), bit for bit as the CPU computes it;
    /// NaN where no reference is left. Only N values come back instead of
    /// the N × N × orders match counts.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`] where this backend has no such
    /// reduction (the caller computes the matrix instead); a device failure.
    fn ngram_mean_f(&self, input: &NgramInput, q: &MeanUtility<'_>) -> Result<Vec<f64>, BackendError> {
        let _ = (input, q);
        Err(BackendError::Unsupported("no device reduction of the chrF utility".into()))
    }
}

/// A [`Backend::ngram_match_grid`] request: hypotheses against references,
/// each a range of string indices.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The hypotheses' string indices.
    pub hyps: Range<u32>,
    /// The references' string indices.
    pub refs: Range<u32>,
}

/// A [`Backend::ngram_aggregate`] request: for hypothesis `j` (string
/// `hyps.start + j`) and order `o`, `Σ_g min(mult[j] * count_j[g],
/// Σ_k count_k[g])` over the references `refs` except string `skip[j]`
/// (`u32::MAX`: none).
#[derive(Debug, Clone)]
pub struct Aggregate<'a> {
    /// The hypotheses' string indices.
    pub hyps: Range<u32>,
    /// The references' string indices.
    pub refs: Range<u32>,
    /// Per hypothesis: the reference string left out, or `u32::MAX`.
    pub skip: &'a [u32],
    /// Per hypothesis: the multiplier of its counts.
    pub mult: &'a [u64],
}

/// A [`Backend::ngram_mean_f`] request.
#[derive(Debug, Clone)]
pub struct MeanUtility<'a> {
    /// The hypotheses and references.
    pub grid: Grid,
    /// Per hypothesis: the reference (index within `grid.refs`) left out, or
    /// `u32::MAX`.
    pub skip: &'a [u32],
    /// chrF's beta.
    pub beta: f64,
    /// sacrebleu's `eps_smoothing`.
    pub eps_smoothing: bool,
}

/// A batch a metric entry point may send to the device (see
/// [`Backend::offload`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Edit distances of `pairs` pairs holding `symbols` symbols (code points
    /// or words) on both sides together.
    EditDistance {
        /// Pairs in the batch.
        pairs: usize,
        /// Symbols of both sides, summed over the pairs.
        symbols: u64,
    },
    /// Sentence TER of `rows` rows (the batched greedy shift search).
    TerSegments {
        /// Rows in the batch.
        rows: usize,
    },
    /// Sentence chrF statistics of `rows` rows.
    ChrfSegments {
        /// Rows in the batch.
        rows: usize,
    },
    /// chrF of every hypothesis against every reference of a group (MBR).
    ChrfPairwise {
        /// Hypotheses of the group.
        hyps: usize,
        /// References of the group.
        refs: usize,
    },
    /// MBR's expected chrF utility of a group, reduced on the device
    /// ([`Backend::ngram_mean_f`]).
    ChrfMeanUtility {
        /// Hypotheses of the group.
        hyps: usize,
        /// References of the group.
        refs: usize,
    },
    /// fastchrf's aggregate chrF of a group (MBR).
    ChrfAggregate {
        /// Hypotheses of the group.
        hyps: usize,
        /// References of the group.
        refs: usize,
    },
}

/// Edit distances go to the device under `auto` from this mean length of a
/// side (symbols per string)...
pub const AUTO_EDIT_MIN_MEAN_LEN: u64 = 512;
/// ...and this many pairs in the batch.
pub const AUTO_EDIT_MIN_PAIRS: usize = 1024;
/// MBR's expected chrF utility goes to the device under `auto` from this
/// many (hypothesis, reference) pairs in a group: 1024 × 1024 (measured on
/// an H200: 2.1× the 16 cores at N = 1024, 2.2× at N = 4096; smaller groups
/// not measured).
pub const AUTO_MBR_MIN_PAIRS: usize = 1024 * 1024;

/// The `auto` device on a machine with a usable GPU: every primitive runs on
/// the GPU, but [`Backend::offload`] sends a batch there only where the GPU
/// was measured ahead of the CPU cores of the same machine
/// (docs/PERFORMANCE.md, "GPU backend" on an H100 and "GPU at the scale a
/// GPU user works at" on an H200, each with 16 CPU cores):
/// - edit distances over long strings ([`AUTO_EDIT_MIN_MEAN_LEN`] symbols a
///   side on average, at least [`AUTO_EDIT_MIN_PAIRS`] pairs: 1.7x on the
///   H100 with the first kernel, 7.8x on the H200 with `lev_warp` on ~1 KB
///   strings);
/// - MBR's expected chrF utility reduced on the device, from
///   [`AUTO_MBR_MIN_PAIRS`] pairs in a group (2.1x to 2.2x).
///
/// Sentence TER and chrF, short-string edit distances and the MBR chrF
/// matrices ran 0.1x to 0.4x (1.2x at best for pairwise chrF of 256 to 1,024
/// strings, 0.4x at 4,096), so under `auto` they stay on the CPU;
/// `--device cuda` sends everything to the GPU.
#[derive(Debug)]
pub struct AutoBackend {
    /// The GPU backend, probed (device opened, kernels compiled) on the first
    /// batch the rule sends to it; `None`: no usable GPU.
    gpu: OnceLock<Option<Arc<dyn Backend>>>,
}

impl AutoBackend {
    /// `auto` over this GPU backend.
    #[must_use]
    pub fn new(gpu: Arc<dyn Backend>) -> Self {
        Self { gpu: OnceLock::from(Some(gpu)) }
    }

    /// `auto` over the process's GPU backend ([`gpu`]), opened only when a
    /// batch goes to it: a job that sends none pays nothing for the GPU
    /// (opening the device and compiling the kernels take about 0.4 s).
    #[must_use]
    pub fn lazy() -> Self {
        Self { gpu: OnceLock::new() }
    }

    fn device(&self) -> Option<&Arc<dyn Backend>> {
        self.gpu
            .get_or_init(|| match gpu() {
                Ok(g) => Some(g),
                Err(e) => {
                    no_gpu_note(&e);
                    None
                }
            })
            .as_ref()
    }

    /// Whether the rule sends `work` to the GPU (whether there is one aside).
    #[must_use]
    pub fn rule(work: &Work) -> bool {
        match *work {
            Work::EditDistance { pairs, symbols } => {
                pairs >= AUTO_EDIT_MIN_PAIRS && symbols / (2 * pairs as u64) >= AUTO_EDIT_MIN_MEAN_LEN
            }
            Work::ChrfMeanUtility { hyps, refs } => hyps.saturating_mul(refs) >= AUTO_MBR_MIN_PAIRS,
            Work::TerSegments { .. }
            | Work::ChrfSegments { .. }
            | Work::ChrfPairwise { .. }
            | Work::ChrfAggregate { .. } => false,
        }
    }
}

/// The one `info` note per process that `auto` runs on the CPU, and why.
fn no_gpu_note(e: &BackendError) {
    static SAID: OnceLock<()> = OnceLock::new();
    SAID.get_or_init(|| log::info!(target: "mteval", "{e}; using the CPU backend"));
}

/// Whether the GPU's libraries can be loaded, without opening a device.
fn gpu_libraries() -> Result<(), BackendError> {
    #[cfg(feature = "cuda")]
    return cuda::libraries_present();
    #[cfg(not(feature = "cuda"))]
    return probe_gpu().map(drop);
}

/// The process's `auto` backend, decided once (SQL asks for a backend per
/// batch, and a dlopen per batch is far from free): an [`AutoBackend`] where
/// the GPU's libraries load, else the CPU backend with one `info` note.
fn auto() -> Arc<dyn Backend> {
    static AUTO: OnceLock<Arc<dyn Backend>> = OnceLock::new();
    AUTO.get_or_init(|| match gpu_libraries() {
        Ok(()) => Arc::new(AutoBackend::lazy()),
        Err(e) => {
            no_gpu_note(&e);
            cpu()
        }
    })
    .clone()
}

impl Delegating for AutoBackend {
    fn label(&self) -> String {
        match self.gpu.get() {
            Some(Some(g)) => format!("auto: {} for long-string edit distances, the CPU for the rest", g.name()),
            Some(None) => cpu().name(),
            None => "auto: the CPU, and the GPU (not opened yet) for long-string edit distances".into(),
        }
    }
    fn gpu_like(&self) -> bool {
        self.gpu.get().is_none_or(Option::is_some)
    }
    fn sends(&self, work: &Work) -> bool {
        Self::rule(work) && self.device().is_some()
    }
    fn target(&self) -> Result<&dyn Backend, BackendError> {
        self.device().map(AsRef::as_ref).ok_or_else(|| BackendError::Unsupported("no usable GPU".into()))
    }
}

/// A backend that hands each primitive to another one: [`AutoBackend`] (the
/// GPU, once opened) and [`Observed`] (any backend, with a hook). The
/// [`Backend`] implementation comes with it.
pub trait Delegating: Send + Sync + fmt::Debug {
    /// [`Backend::name`].
    fn label(&self) -> String;
    /// [`Backend::is_gpu`].
    fn gpu_like(&self) -> bool;
    /// [`Backend::offload`].
    fn sends(&self, work: &Work) -> bool {
        let _ = work;
        self.gpu_like()
    }
    /// The backend that runs the primitives.
    ///
    /// # Errors
    /// There is none (the primitive then fails with this error).
    fn target(&self) -> Result<&dyn Backend, BackendError>;
    /// Called after each primitive call with its size and time.
    fn after(&self, call: Call, elapsed: std::time::Duration) {
        let _ = (call, elapsed);
    }
}

/// Runs `f` on `d`'s target, then tells `d` the call and its time.
fn delegate<D: Delegating, T>(
    d: &D,
    call: Call,
    f: impl FnOnce(&dyn Backend) -> Result<T, BackendError>,
) -> Result<T, BackendError> {
    let start = std::time::Instant::now();
    let out = f(d.target()?);
    d.after(call, start.elapsed());
    out
}

#[allow(clippy::cast_possible_truncation, reason = "string index ranges are u32")]
fn span(r: &Range<u32>) -> usize {
    r.len()
}

impl<D: Delegating> Backend for D {
    fn name(&self) -> String {
        self.label()
    }
    fn is_gpu(&self) -> bool {
        self.gpu_like()
    }
    fn offload(&self, work: &Work) -> bool {
        self.sends(work)
    }
    fn edit_distances(&self, a: &Seqs, b: &Seqs) -> Result<Vec<u32>, BackendError> {
        delegate(self, Call::EditDistances { pairs: a.len() }, |g| g.edit_distances(a, b))
    }
    fn edit_distances_text(&self, a: &Texts<'_>, b: &Texts<'_>) -> Result<Vec<u32>, BackendError> {
        delegate(self, Call::EditDistances { pairs: a.len() }, |g| g.edit_distances_text(a, b))
    }
    fn shift_search(&self, hyps: &Seqs, refs: &Seqs) -> Result<Vec<(u32, u32)>, BackendError> {
        delegate(self, Call::ShiftSearch { pairs: hyps.len() }, |g| g.shift_search(hyps, refs))
    }
    fn ngram_matches(&self, input: &NgramInput, pairs: &[u32]) -> Result<Vec<u32>, BackendError> {
        delegate(self, Call::NgramMatches { pairs: pairs.len() / 2 }, |g| g.ngram_matches(input, pairs))
    }
    fn ngram_match_grid(&self, input: &NgramInput, grid: &Grid) -> Result<Vec<u32>, BackendError> {
        let call = Call::NgramMatchGrid { hyps: span(&grid.hyps), refs: span(&grid.refs) };
        delegate(self, call, |g| g.ngram_match_grid(input, grid))
    }
    fn ngram_aggregate(&self, input: &NgramInput, q: &Aggregate<'_>) -> Result<Vec<u64>, BackendError> {
        let call = Call::NgramAggregate { hyps: span(&q.hyps), refs: span(&q.refs) };
        delegate(self, call, |g| g.ngram_aggregate(input, q))
    }
    fn ngram_mean_f(&self, input: &NgramInput, q: &MeanUtility<'_>) -> Result<Vec<f64>, BackendError> {
        let call = Call::NgramMeanF { hyps: span(&q.grid.hyps), refs: span(&q.grid.refs) };
        delegate(self, call, |g| g.ngram_mean_f(input, q))
    }
}

/// A primitive call and its size, as [`Observed`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// [`Backend::edit_distances`] of this many pairs.
    EditDistances {
        /// Pairs.
        pairs: usize,
    },
    /// [`Backend::shift_search`] of this many pairs.
    ShiftSearch {
        /// Pairs.
        pairs: usize,
    },
    /// [`Backend::ngram_matches`] of this many pairs.
    NgramMatches {
        /// Pairs.
        pairs: usize,
    },
    /// [`Backend::ngram_match_grid`] of this many hypotheses and references.
    NgramMatchGrid {
        /// Hypotheses.
        hyps: usize,
        /// References.
        refs: usize,
    },
    /// [`Backend::ngram_aggregate`] of this many hypotheses and references.
    NgramAggregate {
        /// Hypotheses.
        hyps: usize,
        /// References.
        refs: usize,
    },
    /// [`Backend::ngram_mean_f`] of this many hypotheses and references.
    NgramMeanF {
        /// Hypotheses.
        hyps: usize,
        /// References.
        refs: usize,
    },
}

/// Hook of an [`Observed`] backend: each call and its time.
pub type CallHook = Box<dyn Fn(Call, std::time::Duration) + Send + Sync>;

/// Another backend, taken for a GPU (so that the metric entry points batch
/// for it), with a hook after every primitive call: for benchmarks that
/// time the device's share, and for tests that count what reaches a device.
pub struct Observed {
    inner: Arc<dyn Backend>,
    hook: CallHook,
}

impl fmt::Debug for Observed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Observed").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl Observed {
    /// `inner`, with `hook` called after each of its primitive calls.
    pub fn new(inner: Arc<dyn Backend>, hook: impl Fn(Call, std::time::Duration) + Send + Sync + 'static) -> Self {
        Self { inner, hook: Box::new(hook) }
    }
}

impl Delegating for Observed {
    fn label(&self) -> String {
        self.inner.name()
    }
    fn gpu_like(&self) -> bool {
        true
    }
    fn target(&self) -> Result<&dyn Backend, BackendError> {
        Ok(self.inner.as_ref())
    }
    fn after(&self, call: Call, elapsed: std::time::Duration) {
        (self.hook)(call, elapsed);
    }
}

/// Which device the metrics run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DeviceRequest {
    /// The CPU cores, with the GPU (when a CUDA driver, NVRTC and a device
    /// are present) for the batches it was measured faster on
    /// ([`AutoBackend`]).
    #[default]
    Auto,
    /// All CPU cores (rayon).
    Cpu,
    /// The GPU; an error when there is none.
    Cuda,
}

impl FromStr for DeviceRequest {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Self::Auto),
            "cpu" => Ok(Self::Cpu),
            "cuda" | "gpu" => Ok(Self::Cuda),
            other => Err(format!("unknown device '{other}' (expected auto, cpu or cuda)")),
        }
    }
}

impl fmt::Display for DeviceRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Auto => "auto",
            Self::Cpu => "cpu",
            Self::Cuda => "cuda",
        })
    }
}

/// A process-wide tuning setting: as set by code, else read once from an
/// environment variable, else a default.
struct Setting {
    /// `UNSET` until set or read.
    value: AtomicUsize,
    env: &'static str,
    default: usize,
}

const UNSET: usize = usize::MAX;

impl Setting {
    const fn new(env: &'static str, default: usize) -> Self {
        Self { value: AtomicUsize::new(UNSET), env, default }
    }

    fn set(&self, v: usize) {
        self.value.store(v.min(UNSET - 1), Ordering::Relaxed);
    }

    fn get(&self) -> usize {
        match self.value.load(Ordering::Relaxed) {
            UNSET => {
                let v = std::env::var(self.env).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(self.default);
                let v: usize = v.min(UNSET - 1);
                // A concurrent `set` wins.
                match self.value.compare_exchange(UNSET, v, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => v,
                    Err(set) => set,
                }
            }
            v => v,
        }
    }
}

static TER_PIPELINE: Setting = Setting::new("MTEVAL_TER_PIPELINE", 2);

/// Sets how many parts of a TER batch a GPU searches at once (1: every row
/// in one search).
pub fn set_ter_pipeline(parts: usize) {
    TER_PIPELINE.set(parts);
}

/// How many parts of a TER batch a GPU searches at once, so that one part's
/// host work (tokenising, mapping words to ids) overlaps another's kernel: as set by
/// [`set_ter_pipeline`], else the environment variable `MTEVAL_TER_PIPELINE`,
/// else 2.
#[must_use]
pub fn ter_pipeline() -> usize {
    TER_PIPELINE.get().max(1)
}

/// The CPU backend (one per process).
#[must_use]
pub fn cpu() -> Arc<dyn Backend> {
    static CPU: OnceLock<Arc<dyn Backend>> = OnceLock::new();
    CPU.get_or_init(|| Arc::new(CpuBackend)).clone()
}

/// The process's GPU backend, probed once: the driver and NVRTC are looked
/// for with dlopen first (cudarc would panic on a missing library), then a
/// device, then the kernels are compiled once for it.
///
/// # Errors
/// Why there is no usable GPU.
pub fn gpu() -> Result<Arc<dyn Backend>, BackendError> {
    static GPU: OnceLock<Result<Arc<dyn Backend>, BackendError>> = OnceLock::new();
    GPU.get_or_init(probe_gpu).clone()
}

#[cfg(feature = "cuda")]
fn probe_gpu() -> Result<Arc<dyn Backend>, BackendError> {
    let exec = cuda::CudaExec::probe()?;
    Ok(Arc::new(GpuBackend::new(exec)))
}

#[cfg(not(feature = "cuda"))]
fn probe_gpu() -> Result<Arc<dyn Backend>, BackendError> {
    Err(BackendError::Unavailable("this build of mteval has no CUDA support (feature `cuda` off)".into()))
}

/// The backend for a request. `auto` gives an [`AutoBackend`] where the
/// GPU's libraries load (the device is opened on its first batch), else the
/// CPU backend with one `info` note per process (the `log` crate).
///
/// # Errors
/// `cuda` requested and no usable GPU (the message says why).
pub fn backend_for(req: DeviceRequest) -> Result<Arc<dyn Backend>, BackendError> {
    match req {
        DeviceRequest::Cpu => Ok(cpu()),
        DeviceRequest::Cuda => gpu().map_err(|e| match e {
            BackendError::Unavailable(why) => {
                BackendError::Unavailable(format!("device 'cuda' was requested but {why}; use --device cpu or auto"))
            }
            other => other,
        }),
        DeviceRequest::Auto => Ok(auto()),
    }
}

/// How many batches fell back to the CPU after a GPU failure (for tests and reports).
static FALLBACKS: AtomicUsize = AtomicUsize::new(0);

/// Number of batches recomputed on the CPU after a GPU failure in this process.
#[must_use]
pub fn fallback_count() -> usize {
    FALLBACKS.load(Ordering::Relaxed)
}

/// Runs `gpu`; on failure runs `cpu` instead. Device failures are logged
/// as warnings (the `log` crate, target `mteval`: the first 10 per process,
/// then a note that more are silenced; the application decides where they
/// go); unsupported inputs fall back silently.
pub fn or_cpu<T>(what: &str, gpu: impl FnOnce() -> Result<T, BackendError>, cpu: impl FnOnce() -> T) -> T {
    match gpu() {
        Ok(v) => v,
        Err(BackendError::Unsupported(_)) => cpu(),
        Err(e) => {
            let n = FALLBACKS.fetch_add(1, Ordering::Relaxed);
            if n < 10 {
                log::warn!(target: "mteval", "{what} failed on the GPU ({e}); recomputing this batch on the CPU");
            } else if n == 10 {
                log::warn!(target: "mteval", "more GPU failures; further warnings are not shown");
            }
            cpu()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Backend, CpuBackend, Texts};

    #[test]
    fn texts_pack_utf8_and_give_back_the_code_points() {
        let strs = ["", "a", "abcd", "abcde", "é猫𝄞ß", "😀x€", "tail of three bytes: 猫"];
        let cps: Vec<usize> = strs.iter().map(|s| s.chars().count()).collect();
        let t = Texts::from_fn_par(strs.len(), &cps, |i| strs[i]).unwrap();
        assert_eq!(t.len(), strs.len());
        // Each string starts on a fresh word, its bytes little endian.
        let words: Vec<u64> = strs.iter().map(|s| s.len().div_ceil(4) as u64).collect();
        assert_eq!(t.word_offs.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>(), words);
        let mut packed = vec![u32::MAX; t.n_words()];
        t.fill_words(&mut packed);
        for (i, s) in strs.iter().enumerate() {
            let (lo, hi) = (usize::try_from(t.word_offs[i]).unwrap(), usize::try_from(t.word_offs[i + 1]).unwrap());
            let w = &packed[lo..hi];
            let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
            assert_eq!(&bytes[..s.len()], s.as_bytes());
            assert!(bytes[s.len()..].iter().all(|&b| b == 0), "padding of {s:?}");
        }
        let back = t.code_points();
        for (i, s) in strs.iter().enumerate() {
            assert_eq!(back.get(i), s.chars().map(u32::from).collect::<Vec<_>>().as_slice(), "{s:?}");
            assert_eq!(t.code_point_len(i), cps[i]);
        }
        // The default edit_distances_text is edit_distances over those code points.
        let d = CpuBackend.edit_distances_text(&t, &t).unwrap();
        assert!(d.iter().all(|&x| x == 0));
    }
}
