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
// the host with sacrebleu's float arithmetic). Candidate c is four u32
// (pair, start, len, target): the block hyp[start .. start+len) moved before
// index `target` of the list without it (sacrebleu's _perform_shift, target
// clamped to the length).
//
// The DP row lives in a ring of TER_RING cells in the thread's own local
// memory (cached in L1), indexed by column mod TER_RING and updated in
// place: the cell of column j is read (as `up`, with `diag` kept in a
// register) before the current row overwrites it. Row i writes from its
// band's lo on, so no cell that row i - 1 has still to give is overwritten
// as long as hi(i - 1) - lo(i) <= TER_RING. sacrebleu's band keeps that
// span at most 52 columns (its beam widens only by as much as the diagonal
// moves per row); the host checks it and leaves a round where it fails to
// the CPU. Cells outside the previous row's band read as infinite.

#define TER_INF 0x3FFFFFFFu
#define TER_RING 64u

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
    const u32* __restrict__ data, const u64* __restrict__ offs, u32 n_pairs,
    u32* __restrict__ out, u32 n_cand)
{
    u64 c = mteval_thread_index();
    if (c >= n_cand) return;
    const u64 sect = (u64)n_pairs + 1;
    const u32* cand = data + offs[3 * sect] + 4 * c;
    u32 pair = cand[0], s = cand[1], len = cand[2], target = cand[3];
    const u32* h = data + offs[pair];
    u32 n_h = (u32)(offs[pair + 1] - offs[pair]);
    const u32* r = data + offs[sect + pair];
    u32 n_r = (u32)(offs[sect + pair + 1] - offs[sect + pair]);
    const u32* band = data + offs[2 * sect + pair];
    u32 ring[TER_RING];
    u32 w = n_r + 1;
    // Band of the previous row (row 0, implicit, needs none).
    u32 prev_lo = 0, prev_hi = 0;
    u32 last = n_r;
    for (u32 i = 1; i <= n_h; ++i) {
        u32 lo = band[2 * i], hi = band[2 * i + 1];
        u32 word = h[ter_shifted_index(i - 1, n_h, s, len, target)];
        // Row 0 is implicit: cell j holds j.
#define TER_PREV(j) (i == 1 ? (j) : ((j) >= prev_lo && (j) < prev_hi ? ring[(j) % TER_RING] : TER_INF))
        u32 diag = lo > 0 ? TER_PREV(lo - 1) : 0;
        u32 left = TER_INF;
        for (u32 j = lo; j < hi; ++j) {
            u32 up = TER_PREV(j);
            u32 v;
            if (j == 0) {
                v = up + 1;
            } else {
                u32 best = word == r[j - 1] ? diag : diag + 1;
                if (up + 1 < best) best = up + 1;
                if (left + 1 < best) best = left + 1;
                v = best < TER_INF ? best : TER_INF;
            }
            ring[j % TER_RING] = v;
            diag = up;
            left = v;
        }
#undef TER_PREV
        // The last row always reaches column n_r.
        last = hi == w ? left : TER_INF;
        prev_lo = lo;
        prev_hi = hi;
    }
    out[c] = last;
}
