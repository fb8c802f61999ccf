// Batched unit-cost Levenshtein distance over u32 symbols (code points or
// word ids), one thread per pair: Myers' bit-parallel algorithm in Hyyrö's
// formulation, with the pattern cut into 64-bit blocks and the horizontal
// carry passed from block to block (the same recurrence as
// kernels/src/levenshtein.rs, so both give the same distances).
//
// Pair t compares pattern a[a_offs[t] .. a_offs[t+1]) with text
// b[b_offs[t] .. b_offs[t+1]). Match masks are computed on the fly from the
// pattern (no alphabet table), and the vertical deltas of multi-block
// patterns live in state[state_offs[t] ..] (2 words per block).

// Match mask of text symbol c against pattern block k (bits past the
// pattern's end stay 0).
__device__ __forceinline__ u64 lev_peq(const u32* p, u32 m, u32 k, u32 c) {
    u64 eq = 0;
    u32 lo = k * 64;
    u32 hi = lo + 64 < m ? lo + 64 : m;
    for (u32 i = lo; i < hi; ++i) {
        eq |= (u64)(p[i] == c) << (i - lo);
    }
    return eq;
}

extern "C" __global__ void lev_myers(
    const u32* __restrict__ a, const u64* __restrict__ a_offs,
    const u32* __restrict__ b, const u64* __restrict__ b_offs,
    u64* __restrict__ state, const u64* __restrict__ state_offs,
    u32* __restrict__ out, u32 n_pairs)
{
    u64 t = mteval_thread_index();
    if (t >= n_pairs) return;
    const u32* p = a + a_offs[t];
    u32 m = (u32)(a_offs[t + 1] - a_offs[t]);
    const u32* x = b + b_offs[t];
    u32 n = (u32)(b_offs[t + 1] - b_offs[t]);
    if (m == 0) { out[t] = n; return; }
    if (n == 0) { out[t] = m; return; }
    u32 blocks = (m + 63) / 64;
    u32 last_bit = (m - 1) % 64;
    u32 score = m;
    if (blocks == 1) {
        u64 vp = ~0ULL, vn = 0;
        for (u32 j = 0; j < n; ++j) {
            u64 eq = lev_peq(p, m, 0, x[j]);
            u64 xv = eq | vn;
            u64 xh = (((eq & vp) + vp) ^ vp) | eq;
            u64 ph = vn | ~(xh | vp);
            u64 mh = vp & xh;
            score = score + (u32)((ph >> last_bit) & 1) - (u32)((mh >> last_bit) & 1);
            ph = (ph << 1) | 1;
            mh <<= 1;
            vp = mh | ~(xv | ph);
            vn = ph & xv;
        }
        out[t] = score;
        return;
    }
    u64* st = state + state_offs[t];
    for (u32 k = 0; k < blocks; ++k) {
        st[2 * k] = ~0ULL;
        st[2 * k + 1] = 0;
    }
    for (u32 j = 0; j < n; ++j) {
        u32 c = x[j];
        // Horizontal carry into the first block: +1 (row 0 counts the text consumed).
        u64 hp = 1, hn = 0, ph = 0, mh = 0;
        for (u32 k = 0; k < blocks; ++k) {
            u64 vp = st[2 * k], vn = st[2 * k + 1];
            u64 eq_b = lev_peq(p, m, k, c);
            u64 xv = eq_b | vn;
            u64 eq = eq_b | hn;
            u64 xh = (((eq & vp) + vp) ^ vp) | eq;
            ph = vn | ~(xh | vp);
            mh = vp & xh;
            u64 ph_in = (ph << 1) | hp;
            u64 mh_in = (mh << 1) | hn;
            hp = ph >> 63;
            hn = mh >> 63;
            st[2 * k] = mh_in | ~(xv | ph_in);
            st[2 * k + 1] = ph_in & xv;
        }
        score = score + (u32)((ph >> last_bit) & 1) - (u32)((mh >> last_bit) & 1);
    }
    out[t] = score;
}
