// TER shift candidates, scored in one launch per greedy round: one thread
// per candidate computes sacrebleu's beam-banded word edit distance
// (BeamEditDistance, metrics_spec.md §1.4) of the shifted hypothesis against
// its reference. The control flow of the shift search (which candidates,
// the 1000-candidate budget, the choice of the best shift) stays on the
// host; only the distances come from here. Same recurrence, band and
// tie-free integer costs as kernels/src/ter/beam.rs.
//
// Pair p: current hypothesis hyp[hyp_offs[p] ..], reference
// ref[ref_offs[p] ..], band limits bands[band_offs[p] ..] as (lo, hi) per
// row 0..=n_h (computed on the host with sacrebleu's float arithmetic).
// Candidate c = cand[4c .. 4c+4] = (pair, start, len, target): the block
// hyp[start .. start+len) moved before index `target` of the list without
// it (sacrebleu's _perform_shift, target clamped to the length). Two DP rows
// of n_r + 1 cells live in rows[row_offs[c] ..].

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
    const u32* __restrict__ hyp, const u64* __restrict__ hyp_offs,
    const u32* __restrict__ ref, const u64* __restrict__ ref_offs,
    const u32* __restrict__ bands, const u64* __restrict__ band_offs,
    const u32* __restrict__ cand, u32* __restrict__ rows, const u64* __restrict__ row_offs,
    u32* __restrict__ out, u32 n_cand)
{
    u64 c = mteval_thread_index();
    if (c >= n_cand) return;
    u32 pair = cand[4 * c], s = cand[4 * c + 1], len = cand[4 * c + 2], target = cand[4 * c + 3];
    const u32* h = hyp + hyp_offs[pair];
    u32 n_h = (u32)(hyp_offs[pair + 1] - hyp_offs[pair]);
    const u32* r = ref + ref_offs[pair];
    u32 n_r = (u32)(ref_offs[pair + 1] - ref_offs[pair]);
    const u32* band = bands + band_offs[pair];
    u32 w = n_r + 1;
    u32* prev = rows + row_offs[c];
    u32* cur = prev + w;
    for (u32 j = 0; j < w; ++j) {
        prev[j] = j;
        cur[j] = TER_INF;
    }
    // The band `cur` held two rows ago, cleared lazily.
    u32 stale_lo = 0, stale_hi = 0, prev_lo = 0, prev_hi = w;
    for (u32 i = 1; i <= n_h; ++i) {
        u32 lo = band[2 * i], hi = band[2 * i + 1];
        for (u32 j = stale_lo; j < stale_hi; ++j) cur[j] = TER_INF;
        u32 word = h[ter_shifted_index(i - 1, n_h, s, len, target)];
        for (u32 j = lo; j < hi; ++j) {
            if (j == 0) {
                cur[0] = prev[0] + 1;
                continue;
            }
            u32 best = word == r[j - 1] ? prev[j - 1] : prev[j - 1] + 1;
            u32 del = prev[j] + 1;
            if (del < best) best = del;
            u32 ins = cur[j - 1] + 1;
            if (ins < best) best = ins;
            cur[j] = best < TER_INF ? best : TER_INF;
        }
        stale_lo = prev_lo;
        stale_hi = prev_hi;
        prev_lo = lo;
        prev_hi = hi;
        u32* tmp = prev;
        prev = cur;
        cur = tmp;
    }
    out[c] = prev[w - 1];
}
