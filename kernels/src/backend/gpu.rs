//! The GPU backend's host side: lays batches out as flat buffers, launches
//! the kernels of `kernels/cuda/*.cu` through a [`KernelExec`] and reads the
//! integer results back. The same code drives a real GPU
//! ([`super::cuda::CudaExec`]) and the CPU emulation of the kernels
//! ([`super::emulate::EmuExec`]) that the tests use on machines without one.

use rayon::prelude::*;

use super::{Aggregate, Backend, BackendError, Grid, MeanUtility, NgramInput, Seqs, Texts};

/// A kernel argument: a `u32` scalar or a device buffer.
pub enum KArg<'a, B> {
    /// A `u32` passed by value.
    U32(u32),
    /// A device buffer (kernels may write it).
    Buf(&'a B),
}

// A scalar or a reference: copied whatever the buffer type.
impl<B> Clone for KArg<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for KArg<'_, B> {}

/// Device memory and kernel launches (one implementation per way of running
/// the CUDA C kernels).
pub trait KernelExec: Send + Sync + 'static {
    /// A device buffer of `u32` or `u64`.
    type Buf: Send + Sync;

    /// The device, in words.
    fn describe(&self) -> String;
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// Out of memory, driver errors.
    fn upload_u32(&self, v: &[u32]) -> Result<Self::Buf, BackendError>;
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn upload_u64(&self, v: &[u64]) -> Result<Self::Buf, BackendError>;
    /// `n` zeroed `u32`.
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn zeros_u32(&self, n: usize) -> Result<Self::Buf, BackendError>;
    /// `n` zeroed `u64`.
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn zeros_u64(&self, n: usize) -> Result<Self::Buf, BackendError>;
    /// Uploads `n` values that `fill` writes into host memory first (the
    /// executor's staging memory, which a GPU keeps pinned and reuses, so a
    /// batch is written once on the host and copied at the bus's full rate).
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn upload_u32_with(&self, n: usize, fill: &(dyn Fn(&mut [u32]) + Sync)) -> Result<Self::Buf, BackendError> {
        let mut v = vec![0u32; n];
        fill(&mut v);
        self.upload_u32(&v)
    }
    /// Copies a `u32` buffer back (its first `n` values).
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn download_u32(&self, b: &Self::Buf, n: usize) -> Result<Vec<u32>, BackendError>;
    /// Copies a `u64` buffer back (its first `n` values).
    ///
    /// # Errors
    /// As [`KernelExec::upload_u32`].
    fn download_u64(&self, b: &Self::Buf, n: usize) -> Result<Vec<u64>, BackendError>;
    /// Runs `kernel` on `threads` threads (one per work item) and waits for it.
    ///
    /// # Errors
    /// Launch or kernel errors.
    fn launch(&self, kernel: &'static str, threads: u64, args: &[KArg<'_, Self::Buf>]) -> Result<(), BackendError>;
    /// How many warps a persistent-warp kernel (`ter_search`) launches at
    /// most: about what the device keeps resident at once.
    fn max_warps(&self) -> usize {
        // 132 multiprocessors of 64 resident warps each (H100, H200).
        8192
    }
}

/// Cells of a candidate's DP ring in `ter_search` (`TER_RING` in
/// `kernels/cuda/ter.cu`).
const TER_RING: usize = 64;

/// Words of `ter_search`'s memory per warp (`TER_WARP_WORDS`).
const TER_WARP_WORDS: usize = 8 + 32 * 4 + 3 * 1000;

/// At most this many words of per-pair scratch in one `ter_search` launch
/// (1 GiB); a larger batch is searched in several launches.
const TER_SCRATCH_WORDS: usize = 1 << 28;

/// `ter_search`'s scratch words for a pair of `n_h` and `n_r` words (the
/// word order twice, the band, the row offsets, the alignment and both
/// error prefix sums, then the banded matrix), or `None` when its ring does
/// not hold the pair's band. The ring holds it when every row below the
/// last is at most [`TER_RING`] columns wide, and every row `i >= 2` starts
/// at most [`TER_RING`] columns before row `i - 1` ends: sacrebleu's band
/// keeps both near 52 unless the reference is about 50 times longer than
/// the hypothesis.
fn ter_scratch_words(n_h: usize, n_r: usize) -> Option<usize> {
    let mut matrix = 0;
    let mut above: Option<(usize, usize)> = None;
    for (i, (lo, hi)) in crate::ter::beam::band_rows(n_h, n_r).enumerate() {
        let fits = (i == 0 || i == n_h || hi - lo <= TER_RING) && above.is_none_or(|a| i < 2 || a.1 <= lo + TER_RING);
        if !fits {
            return None;
        }
        matrix += hi - lo;
        above = Some((lo, hi));
    }
    Some(6 * n_h + 2 * n_r + 5 + matrix)
}

/// The kernels of `kernels/cuda/*.cu` behind the [`Backend`] trait.
pub struct GpuBackend<E: KernelExec> {
    exec: E,
    /// A kernel whose launches fail on purpose (fault-injection tests).
    fail: Option<String>,
    /// Edit distances whose shorter side has at least this many 64-symbol
    /// blocks go to `lev_warp`.
    lev_warp_blocks: usize,
}

impl<E: KernelExec> std::fmt::Debug for GpuBackend<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuBackend")
            .field("device", &self.exec.describe())
            .field("fail", &self.fail)
            .field("lev_warp_blocks", &self.lev_warp_blocks)
            .finish()
    }
}

fn unsupported(why: impl Into<String>) -> BackendError {
    BackendError::Unsupported(why.into())
}

/// The kernels' span arguments of a group: the first hypothesis, their
/// number, the first reference, their number, and the n-gram orders.
fn span_args<'a, B>(
    hyps: &std::ops::Range<u32>,
    refs: &std::ops::Range<u32>,
    orders: u32,
) -> Result<[KArg<'a, B>; 5], BackendError> {
    Ok([
        KArg::U32(hyps.start),
        KArg::U32(to_u32(hyps.len(), "hypotheses")?),
        KArg::U32(refs.start),
        KArg::U32(to_u32(refs.len(), "references")?),
        KArg::U32(orders),
    ])
}

fn to_u32(n: usize, what: &str) -> Result<u32, BackendError> {
    u32::try_from(n).map_err(|_| unsupported(format!("{what} ({n}) above 2^32")))
}

/// Profiles of at most this many windows are built one thread per window
/// (`chrf_windows`, `chrf_rank`, `chrf_compact`: each thread passes over its
/// profile's windows, so the work grows with the square of the windows);
/// longer ones one thread per profile with a heap sort (`chrf_profiles`).
const CHRF_RANK_MAX_WINDOWS: u32 = 2048;

/// Device buffers of one [`NgramInput`]'s profiles.
struct Profiles<B> {
    hi: B,
    lo: B,
    counts: B,
    offs: B,
    uniq: B,
    /// Host copy of the key offsets.
    host_offs: Vec<u64>,
    orders: u32,
}

impl<B> Profiles<B> {
    /// The kernel arguments: the five profile buffers in the kernels' order
    /// (`key_hi`, `key_lo`, counts, `key_offs`, `n_uniq`), then `rest`.
    fn args<'s>(&'s self, rest: impl IntoIterator<Item = KArg<'s, B>>) -> Vec<KArg<'s, B>> {
        [&self.hi, &self.lo, &self.counts, &self.offs, &self.uniq].into_iter().map(KArg::Buf).chain(rest).collect()
    }
}

impl<E: KernelExec> GpuBackend<E> {
    /// A backend on `exec`. The environment variable `MTEVAL_GPU_FAULT=<kernel>`
    /// makes that kernel's launches fail (to test the CPU fallback on a GPU).
    pub fn new(exec: E) -> Self {
        let fail = std::env::var("MTEVAL_GPU_FAULT").ok().filter(|s| !s.is_empty());
        Self { exec, fail, lev_warp_blocks: lev_warp_min_blocks() }
    }

    /// A backend whose launches of `kernel` fail (`"*"`: every kernel).
    pub fn failing_on(exec: E, kernel: &str) -> Self {
        Self { exec, fail: Some(kernel.to_owned()), lev_warp_blocks: lev_warp_min_blocks() }
    }

    /// The same backend sending edit distances whose shorter side has at
    /// least `blocks` 64-symbol blocks to the one-warp-per-pair kernel (0:
    /// every pair; `usize::MAX`: none), for tests and measurements.
    #[must_use]
    pub fn with_lev_warp_blocks(mut self, blocks: usize) -> Self {
        self.lev_warp_blocks = blocks;
        self
    }

    /// The kernel executor.
    pub fn exec(&self) -> &E {
        &self.exec
    }

    fn launch(&self, kernel: &'static str, threads: u64, args: &[KArg<'_, E::Buf>]) -> Result<(), BackendError> {
        if self.fail.as_deref().is_some_and(|f| f == kernel || f == "*") {
            return Err(BackendError::Device(format!("injected fault in kernel {kernel} (MTEVAL_GPU_FAULT)")));
        }
        if threads == 0 {
            return Ok(());
        }
        self.exec.launch(kernel, threads, args)
    }

    fn upload_seqs(&self, s: &Seqs) -> Result<(E::Buf, E::Buf), BackendError> {
        Ok((self.exec.upload_u32(&s.data)?, self.exec.upload_u64(&s.offs)?))
    }

    /// The match counts of every hypothesis of `grid.hyps` against every
    /// reference of `grid.refs`, per order (`chrf_match_grid`), left on the
    /// device.
    fn match_grid(&self, p: &Profiles<E::Buf>, grid: &Grid) -> Result<E::Buf, BackendError> {
        let n_out = grid.hyps.len() * grid.refs.len() * p.orders as usize;
        let out = self.exec.zeros_u32(n_out)?;
        let args = p.args(std::iter::once(KArg::Buf(&out)).chain(span_args(&grid.hyps, &grid.refs, p.orders)?));
        self.launch("chrf_match_grid", n_out as u64, &args)?;
        Ok(out)
    }

    fn profiles(&self, input: &NgramInput) -> Result<Profiles<E::Buf>, BackendError> {
        if input.char_order > 6 || input.word_order > 6 {
            return Err(unsupported("n-gram orders above 6"));
        }
        if input.orders() == 0 {
            return Err(unsupported("no n-gram order (nc:0|nw:0)"));
        }
        if input.words.data.iter().any(|&w| w >= 1 << 21) || input.chars.data.iter().any(|&c| c >= 1 << 21) {
            return Err(unsupported("more than 2^21 distinct words in one batch"));
        }
        let n = input.n_strings();
        let orders = input.orders();
        let mut host_offs = Vec::with_capacity(n * orders + 1);
        host_offs.push(0u64);
        for s in 0..n {
            for o in 0..orders {
                let t = input.total(s, o);
                if t >= u64::from(u32::MAX) {
                    return Err(unsupported("a string of 2^32 symbols or more"));
                }
                host_offs.push(host_offs[host_offs.len() - 1] + t);
            }
        }
        #[allow(clippy::cast_possible_truncation, reason = "the n-gram total counts windows of strings held in memory")]
        let keys = host_offs[host_offs.len() - 1] as usize;
        let (chars, char_offs) = self.upload_seqs(&input.chars)?;
        let (words, word_offs) = self.upload_seqs(&input.words)?;
        let longest = host_offs.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let p = Profiles {
            hi: self.exec.zeros_u64(keys)?,
            lo: self.exec.zeros_u64(keys)?,
            counts: self.exec.zeros_u32(keys)?,
            offs: self.exec.upload_u64(&host_offs)?,
            uniq: self.exec.zeros_u32(n * orders)?,
            host_offs,
            orders: to_u32(orders, "orders")?,
        };
        let n_strings = KArg::U32(to_u32(n, "strings")?);
        let n_profiles = KArg::U32(to_u32(n * orders, "profiles")?);
        let max_windows = KArg::U32(CHRF_RANK_MAX_WINDOWS);
        let (raw_hi, raw_lo, mark) =
            (self.exec.zeros_u64(keys)?, self.exec.zeros_u64(keys)?, self.exec.zeros_u32(keys)?);
        let symbols = [KArg::Buf(&chars), KArg::Buf(&char_offs), KArg::Buf(&words), KArg::Buf(&word_offs)];
        let char_word = [KArg::U32(input.char_order), KArg::U32(input.word_order)];
        let raw = [KArg::Buf(&p.offs), KArg::Buf(&raw_hi), KArg::Buf(&raw_lo)];
        self.launch(
            "chrf_windows",
            keys as u64,
            &[&symbols[..], &raw, &[n_strings], &char_word, &[max_windows]].concat(),
        )?;
        self.launch("chrf_rank", keys as u64, &[&raw[..], &[KArg::Buf(&mark), n_profiles, max_windows]].concat())?;
        self.launch(
            "chrf_compact",
            keys as u64,
            &[
                &raw[..],
                &[
                    KArg::Buf(&mark),
                    KArg::Buf(&p.hi),
                    KArg::Buf(&p.lo),
                    KArg::Buf(&p.counts),
                    KArg::Buf(&p.uniq),
                    n_profiles,
                    max_windows,
                ],
            ]
            .concat(),
        )?;
        if longest > u64::from(CHRF_RANK_MAX_WINDOWS) {
            self.launch(
                "chrf_profiles",
                (n * orders) as u64,
                &[
                    &symbols[..],
                    &[
                        KArg::Buf(&p.hi),
                        KArg::Buf(&p.lo),
                        KArg::Buf(&p.counts),
                        KArg::Buf(&p.offs),
                        KArg::Buf(&p.uniq),
                        n_strings,
                    ],
                    &char_word,
                    &[max_windows],
                ]
                .concat(),
            )?;
        }
        Ok(p)
    }
}

/// Strings decoded on the device: code points, their offsets, and each
/// string's length on the host.
type Decoded<B> = (B, B, Vec<usize>);

/// One side of a batch of edit distances on the device: the symbols, their
/// offsets, and each sequence's length on the host.
struct Symbols<'a, B> {
    data: &'a B,
    offs: &'a B,
    lens: &'a [usize],
}

/// Pairs whose shorter side has at least this many 64-symbol blocks go to
/// the one-warp-per-pair kernel (`lev_warp`), the others to one thread per
/// pair (`lev_myers`). `MTEVAL_LEV_WARP_BLOCKS` overrides it (0: every pair
/// to `lev_warp`; a large value: none); so does
/// [`GpuBackend::with_lev_warp_blocks`].
fn lev_warp_min_blocks() -> usize {
    static MIN: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MIN.get_or_init(|| std::env::var("MTEVAL_LEV_WARP_BLOCKS").ok().and_then(|v| v.parse().ok()).unwrap_or(8))
}

impl<E: KernelExec> GpuBackend<E> {
    /// Edit distances of `a[i]` and `b[i]`, whose symbols are already on the
    /// device. The kernels make the shorter side of each pair the pattern
    /// (fewer 64-bit blocks). Pairs of many blocks go to `lev_warp` (one warp
    /// a pair), the rest to `lev_myers` (one thread a pair), longest work
    /// first, so that neighbouring threads have about the same work:
    /// `order[slot]` is the pair that slot (warp or thread) computes.
    fn lev_on_device(&self, a: &Symbols<'_, E::Buf>, b: &Symbols<'_, E::Buf>) -> Result<Vec<u32>, BackendError> {
        let n = a.lens.len();
        let n32 = to_u32(n, "pairs")?;
        let mut keyed: Vec<(usize, usize, u32)> = (0..n32)
            .into_par_iter()
            .map(|i| {
                let (x, y) = (a.lens[i as usize], b.lens[i as usize]);
                (x.min(y).div_ceil(64), x.max(y), i)
            })
            .collect();
        if let Some(&(_, t, _)) = keyed.iter().max_by_key(|k| k.1) {
            to_u32(t, "sequence length")?;
        }
        keyed.par_sort_unstable_by(|x, y| (y.0, y.1).cmp(&(x.0, x.1)));
        let n_warp = keyed.partition_point(|k| k.0 >= self.lev_warp_blocks);
        let out = self.exec.zeros_u32(n)?;
        // Carries between blocks (lev_myers) or groups of 32 blocks
        // (lev_warp): two words per 64 text columns.
        for (part, kernel, group) in [(&keyed[..n_warp], "lev_warp", 32usize), (&keyed[n_warp..], "lev_myers", 1)] {
            if part.is_empty() {
                continue;
            }
            let order: Vec<u32> = part.iter().map(|k| k.2).collect();
            let mut carry_offs = Vec::with_capacity(part.len() + 1);
            let mut total = 0u64;
            carry_offs.push(0u64);
            for &(blocks, t, _) in part {
                if blocks > group {
                    total += 2 * t.div_ceil(64) as u64;
                }
                carry_offs.push(total);
            }
            let od = self.exec.upload_u32(&order)?;
            #[allow(clippy::cast_possible_truncation, reason = "the carry size is bounded by sequences held in memory")]
            let carry = self.exec.zeros_u64(total as usize)?;
            let co = self.exec.upload_u64(&carry_offs)?;
            self.launch(
                kernel,
                part.len() as u64 * group as u64,
                &[
                    KArg::Buf(a.data),
                    KArg::Buf(a.offs),
                    KArg::Buf(b.data),
                    KArg::Buf(b.offs),
                    KArg::Buf(&od),
                    KArg::Buf(&carry),
                    KArg::Buf(&co),
                    KArg::Buf(&out),
                    KArg::U32(to_u32(part.len(), "pairs")?),
                ],
            )?;
        }
        self.exec.download_u32(&out, n)
    }
}

impl<E: KernelExec> Backend for GpuBackend<E> {
    fn name(&self) -> String {
        self.exec.describe()
    }

    fn is_gpu(&self) -> bool {
        true
    }

    fn edit_distances(&self, a: &Seqs, b: &Seqs) -> Result<Vec<u32>, BackendError> {
        let n = a.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let lens = |s: &Seqs| -> Vec<usize> { (0..s.len()).map(|i| s.get(i).len()).collect() };
        let (ad, ao) = self.upload_seqs(a)?;
        let (bd, bo) = self.upload_seqs(b)?;
        self.lev_on_device(
            &Symbols { data: &ad, offs: &ao, lens: &lens(a) },
            &Symbols { data: &bd, offs: &bo, lens: &lens(b) },
        )
    }

    fn edit_distances_text(&self, a: &Texts<'_>, b: &Texts<'_>) -> Result<Vec<u32>, BackendError> {
        let n = a.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let decode = |t: &Texts<'_>| -> Result<Decoded<E::Buf>, BackendError> {
            let words = self.exec.upload_u32_with(t.n_words(), &|dst| t.fill_words(dst))?;
            let word_offs = self.exec.upload_u64(&t.word_offs)?;
            let byte_lens = self.exec.upload_u32(&t.byte_lens)?;
            let cp_offs = self.exec.upload_u64(&t.cp_offs)?;
            #[allow(clippy::cast_possible_truncation, reason = "code points are at most the bytes held in memory")]
            let cps = self.exec.zeros_u32(t.cp_offs[t.len()] as usize)?;
            self.launch(
                "utf8_decode",
                t.len() as u64,
                &[
                    KArg::Buf(&words),
                    KArg::Buf(&word_offs),
                    KArg::Buf(&byte_lens),
                    KArg::Buf(&cps),
                    KArg::Buf(&cp_offs),
                    KArg::U32(to_u32(t.len(), "strings")?),
                ],
            )?;
            Ok((cps, cp_offs, (0..t.len()).map(|i| t.code_point_len(i)).collect()))
        };
        let (ad, ao, la) = decode(a)?;
        let (bd, bo, lb) = decode(b)?;
        self.lev_on_device(&Symbols { data: &ad, offs: &ao, lens: &la }, &Symbols { data: &bd, offs: &bo, lens: &lb })
    }

    fn shift_search(&self, hyps: &Seqs, refs: &Seqs) -> Result<Vec<(u32, u32)>, BackendError> {
        let n = hyps.len();
        let mut out = vec![(0u32, 0u32); n];
        // Per pair: on the device (its scratch words), or on the CPU (no
        // reference words; a band the kernel's ring does not hold; a pair
        // whose scratch the kernel's 32-bit row offsets cannot address).
        let plan: Vec<Option<usize>> = (0..n)
            .into_par_iter()
            .map(|i| {
                let (n_h, n_r) = (hyps.get(i).len(), refs.get(i).len());
                let words = if n_r > 0 { ter_scratch_words(n_h, n_r) } else { None };
                words.filter(|&w| u32::try_from(w).is_ok())
            })
            .collect();
        out.par_iter_mut().enumerate().filter(|(i, _)| plan[*i].is_none()).for_each(|(i, o)| {
            let p = crate::ter::shift::ter_pair(hyps.get(i), refs.get(i));
            *o = (p.edits, p.shifts);
        });
        // The device's pairs, most work first.
        let mut listed: Vec<(usize, u32)> = plan
            .iter()
            .enumerate()
            .filter_map(|(i, w)| w.map(|w| (w, i)))
            .map(|(w, i)| Ok((w, to_u32(i, "pairs")?)))
            .collect::<Result<_, BackendError>>()?;
        if listed.is_empty() {
            return Ok(out);
        }
        listed.par_sort_unstable_by(|a, b| b.cmp(a));
        let (hd, ho) = self.upload_seqs(hyps)?;
        let (rd, ro) = self.upload_seqs(refs)?;
        let results = self.exec.zeros_u32(2 * n)?;
        let mut rest = &listed[..];
        while !rest.is_empty() {
            // As many pairs as fit the scratch budget (at least one).
            let mut words = 0usize;
            let take = rest.iter().take_while(|l| {
                words += l.0;
                words <= TER_SCRATCH_WORDS
            });
            let k = take.count().max(1);
            let (part, tail) = rest.split_at(k);
            rest = tail;
            let order: Vec<u32> = part.iter().map(|l| l.1).collect();
            let mut scr_offs = Vec::with_capacity(k + 1);
            let mut at = 0u64;
            for l in part {
                scr_offs.push(at);
                at += l.0 as u64;
            }
            let n_warps = k.min(self.exec.max_warps()).max(1);
            let order = self.exec.upload_u32(&order)?;
            let scr_offs = self.exec.upload_u64(&scr_offs)?;
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the scratch of one launch is at most TER_SCRATCH_WORDS, or one pair's"
            )]
            let scratch = self.exec.zeros_u32(at as usize)?;
            let warp_mem = self.exec.zeros_u32(n_warps * TER_WARP_WORDS)?;
            self.launch(
                "ter_search",
                32 * n_warps as u64,
                &[
                    KArg::Buf(&hd),
                    KArg::Buf(&ho),
                    KArg::Buf(&rd),
                    KArg::Buf(&ro),
                    KArg::Buf(&order),
                    KArg::Buf(&scratch),
                    KArg::Buf(&scr_offs),
                    KArg::Buf(&warp_mem),
                    KArg::Buf(&results),
                    KArg::U32(to_u32(k, "pairs")?),
                    KArg::U32(to_u32(n_warps, "warps")?),
                ],
            )?;
        }
        let results = self.exec.download_u32(&results, 2 * n)?;
        for &(_, i) in &listed {
            let i = i as usize;
            out[i] = (results[2 * i], results[2 * i + 1]);
        }
        Ok(out)
    }

    fn ngram_matches(&self, input: &NgramInput, pairs: &[u32]) -> Result<Vec<u32>, BackendError> {
        let n_pairs = pairs.len() / 2;
        let p = self.profiles(input)?;
        let n_out = n_pairs * p.orders as usize;
        let list = self.exec.upload_u32(pairs)?;
        let out = self.exec.zeros_u32(n_out)?;
        self.launch(
            "chrf_match_list",
            n_out as u64,
            &p.args([KArg::Buf(&list), KArg::Buf(&out), KArg::U32(to_u32(n_pairs, "pairs")?), KArg::U32(p.orders)]),
        )?;
        self.exec.download_u32(&out, n_out)
    }

    fn ngram_match_grid(&self, input: &NgramInput, grid: &Grid) -> Result<Vec<u32>, BackendError> {
        let p = self.profiles(input)?;
        let n_out = grid.hyps.len() * grid.refs.len() * p.orders as usize;
        let out = self.match_grid(&p, grid)?;
        self.exec.download_u32(&out, n_out)
    }

    fn ngram_mean_f(&self, input: &NgramInput, q: &MeanUtility<'_>) -> Result<Vec<f64>, BackendError> {
        let Grid { hyps, refs } = q.grid.clone();
        let p = self.profiles(input)?;
        let nh = hyps.len();
        let orders = p.orders as usize;
        // The match counts stay on the device.
        let matches = self.match_grid(&p, &q.grid)?;
        let totals: Vec<u64> = (0..input.n_strings())
            .flat_map(|s| (0..orders).map(move |o| (s, o)))
            .map(|(s, o)| input.total(s, o))
            .collect();
        let totals = self.exec.upload_u64(&totals)?;
        let skip = self.exec.upload_u32(q.skip)?;
        let params = self.exec.upload_u64(&[q.beta.to_bits(), u64::from(q.eps_smoothing)])?;
        let out = self.exec.zeros_u64(nh)?;
        self.launch(
            "chrf_mean_utility",
            nh as u64,
            &[KArg::Buf(&matches), KArg::Buf(&totals), KArg::Buf(&skip), KArg::Buf(&params), KArg::Buf(&out)]
                .into_iter()
                .chain(span_args(&hyps, &refs, p.orders)?)
                .collect::<Vec<_>>(),
        )?;
        Ok(self.exec.download_u64(&out, nh)?.into_iter().map(f64::from_bits).collect())
    }

    fn ngram_aggregate(&self, input: &NgramInput, q: &Aggregate<'_>) -> Result<Vec<u64>, BackendError> {
        let Aggregate { hyps, refs, skip, mult } = q.clone();
        let p = self.profiles(input)?;
        let nh = hyps.len();
        let orders = p.orders as usize;
        let slots = p.host_offs[hyps.end as usize * orders] - p.host_offs[hyps.start as usize * orders];
        let skip_b = self.exec.upload_u32(skip)?;
        let mult_b = self.exec.upload_u64(mult)?;
        let out = self.exec.zeros_u64(nh * orders)?;
        self.launch(
            "chrf_aggregate",
            slots,
            &p.args(
                [KArg::Buf(&skip_b), KArg::Buf(&mult_b), KArg::Buf(&out)]
                    .into_iter()
                    .chain(span_args(&hyps, &refs, p.orders)?),
            ),
        )?;
        self.exec.download_u64(&out, nh * orders)
    }
}
