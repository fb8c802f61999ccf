// TER shift candidates, scored in one launch per greedy round: one thread
// per candidate computes sacrebleu's beam-banded word edit distance
// (BeamEditDistance, metrics_spec.md §1.4) of the shifted hypothesis against
// its reference. The control flow of the shift search (which candidates,
// the 1000-candidate budget, the choice of the best shift) stays on the
// host; only the distances come from here. Same recurrence, band and
// tie-free integer costs as kernels/src/ter/beam.rs.
//
// A round arrives as two buffers (TerRound in kernels/src/backend/mod.rs):
// `data` holds the hypotheses, the references, the bands and the
// candidates; `offs` holds absolute offsets into it: the n_pairs + 1 bounds
// of the hypotheses, then of the references, then of the bands, then where
// the candidates start. Pair p: current hypothesis data[offs[p] ..],
// reference data[offs[n_pairs + 1 + p] ..], band limits
// data[offs[2 (n_pairs + 1) + p] ..] as (lo, hi) per row 0..=n_h (computed on
// the host with sacrebleu's float arithmetic). A launch scores candidates
// first .. first + n_cand; candidate c is four u32 (pair, start, len,
// target): the block hyp[start .. start+len) moved before index `target` of
// the list without it (sacrebleu's _perform_shift, target clamped to the
// length).
//
// The two DP rows of each candidate (n_r + 1 cells each) are interleaved
// across the launch's candidates: cell j of row b of candidate c is
// rows[(2 j + b) n_cand + c], so the threads of a warp, which mostly score
// candidates of the same pair in step, read and write consecutive words.

#define TER_INF 0x3FFFFFFFu

// Index into the unshifted hypothesis of word q of the shifted one.
__device__ __forceinline__ u32 ter_shifted_index(u32 q, u32 n, u32 s, u32 len, u32 target) {
    u32 t = target < n ? target : n;
    if (t < s) {
        if (q < t) return q;
        if (q < t + len) return s + (q - t);
        if (q < s + len) return q - len;
        return q;
    }
    if (t > s + len) {
        if (q < s) return q;
        if (q < t - len) return q + len;
        if (q < t) return s + (q - (t - len));
        return q;
    }
    u32 e = len + t < n ? len + t : n;
    u32 k = e - s - len;
    if (q < s) return q;
    if (q < s + k) return q + len;
    if (q < e) return s + (q - s - k);
    return q;
}

extern "C" __global__ void ter_candidates(
    const u32* __restrict__ data, const u64* __restrict__ offs, u32 n_pairs, u32 first,
    u32* __restrict__ rows, u32* __restrict__ out, u32 n_cand)
{
    u64 c = mteval_thread_index();
    if (c >= n_cand) return;
    const u64 sect = (u64)n_pairs + 1;
    const u32* cand = data + offs[3 * sect] + 4 * ((u64)first + c);
    u32 pair = cand[0], s = cand[1], len = cand[2], target = cand[3];
    const u32* h = data + offs[pair];
    u32 n_h = (u32)(offs[pair + 1] - offs[pair]);
    const u32* r = data + offs[sect + pair];
    u32 n_r = (u32)(offs[sect + pair + 1] - offs[sect + pair]);
    const u32* band = data + offs[2 * sect + pair];
    u32 w = n_r + 1;
    const u64 step = 2 * (u64)n_cand;
    u32* prev = rows + c;
    u32* cur = rows + n_cand + c;
#define TER_CELL(row, j) (row)[(u64)(j) * step]
    for (u32 j = 0; j < w; ++j) {
        TER_CELL(prev, j) = j;
        TER_CELL(cur, j) = TER_INF;
    }
    // The band `cur` held two rows ago, cleared lazily.
    u32 stale_lo = 0, stale_hi = 0, prev_lo = 0, prev_hi = w;
    for (u32 i = 1; i <= n_h; ++i) {
        u32 lo = band[2 * i], hi = band[2 * i + 1];
        for (u32 j = stale_lo; j < stale_hi; ++j) TER_CELL(cur, j) = TER_INF;
        u32 word = h[ter_shifted_index(i - 1, n_h, s, len, target)];
        // prev[j - 1] and cur[j - 1] carried in registers along the row.
        u32 diag = lo > 0 ? TER_CELL(prev, lo - 1) : 0;
        u32 left = lo > 0 ? TER_CELL(cur, lo - 1) : TER_INF;
        for (u32 j = lo; j < hi; ++j) {
            u32 up = TER_CELL(prev, j);
            u32 v;
            if (j == 0) {
                v = up + 1;
            } else {
                u32 best = word == r[j - 1] ? diag : diag + 1;
                if (up + 1 < best) best = up + 1;
                if (left + 1 < best) best = left + 1;
                v = best < TER_INF ? best : TER_INF;
            }
            TER_CELL(cur, j) = v;
            diag = up;
            left = v;
        }
        stale_lo = prev_lo;
        stale_hi = prev_hi;
        prev_lo = lo;
        prev_hi = hi;
        u32* tmp = prev;
        prev = cur;
        cur = tmp;
    }
    out[c] = TER_CELL(prev, w - 1);
#undef TER_CELL
}
