// Batched unit-cost Levenshtein distance over u32 symbols (code points or
// word ids), one thread per pair: Myers' bit-parallel algorithm in Hyyrö's
// formulation (the same recurrence as kernels/src/levenshtein.rs, so both
// give the same distances).
//
// Pair t compares pattern a[a_offs[t] .. a_offs[t+1]) with text
// b[b_offs[t] .. b_offs[t+1]); the host makes the pattern the shorter side.
// The pattern is cut into 64-symbol blocks and processed block by block
// (block-major): a block's 64 symbols sit in registers while the whole text
// streams past, so a match mask costs 64 register compares and no memory
// reads. Between blocks, the horizontal deltas of every text column (the
// carries, one +1 bit and one -1 bit per column) pass through
// carry[carry_offs[t] ..] (2 words per 64 text columns; unused with a
// single block).

// Bits of block symbols equal to c: lanes [0, 32) and, when `wide`,
// [32, 64). Lanes past the pattern's end hold a copy of its last symbol,
// masked off by the caller.
#define LEV_MASK32(dst, base)                                        \
    MTEVAL_UNROLL for (u32 i = 0; i < 32; ++i) {                 \
        dst |= (u32)(sym[(base) + i] == c) << i;                     \
    }

extern "C" __global__ void lev_myers(
    const u32* __restrict__ a, const u64* __restrict__ a_offs,
    const u32* __restrict__ b, const u64* __restrict__ b_offs,
    u64* __restrict__ carry, const u64* __restrict__ carry_offs,
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
    u64* cw = carry + carry_offs[t];
    u32 blocks = (m + 63) / 64;
    u32 score = m;
    for (u32 k = 0; k < blocks; ++k) {
        u32 lo = k * 64;
        u32 len = m - lo < 64 ? m - lo : 64;
        bool wide = len > 32;
        u64 valid = len == 64 ? ~0ULL : ((1ULL << len) - 1);
        u32 sym[64];
        MTEVAL_UNROLL for (u32 i = 0; i < 64; ++i) {
            sym[i] = p[lo + (i < len ? i : len - 1)];
        }
        bool first = k == 0, last = k + 1 == blocks;
        u32 last_bit = len - 1;
        u64 vp = ~0ULL, vn = 0;
        u64 hp_in = 0, hn_in = 0, hp_out = 0, hn_out = 0;
        for (u32 j = 0; j < n; ++j) {
            u32 bit = j % 64;
            if (bit == 0 && !first) {
                hp_in = cw[2 * (j / 64)];
                hn_in = cw[2 * (j / 64) + 1];
            }
            u32 c = x[j];
            u32 lo32 = 0, hi32 = 0;
            LEV_MASK32(lo32, 0)
            if (wide) { LEV_MASK32(hi32, 32) }
            u64 eq_b = (((u64)hi32 << 32) | lo32) & valid;
            // Horizontal carry into this block: +1 for the first block (row 0
            // counts the text consumed), else what the block above passed.
            u64 hp = first ? 1 : (hp_in >> bit) & 1;
            u64 hn = first ? 0 : (hn_in >> bit) & 1;
            u64 xv = eq_b | vn;
            u64 eq = eq_b | hn;
            u64 xh = (((eq & vp) + vp) ^ vp) | eq;
            u64 ph = vn | ~(xh | vp);
            u64 mh = vp & xh;
            if (last) {
                score = score + (u32)((ph >> last_bit) & 1) - (u32)((mh >> last_bit) & 1);
            } else {
                hp_out |= (ph >> 63) << bit;
                hn_out |= (mh >> 63) << bit;
                if (bit == 63 || j + 1 == n) {
                    cw[2 * (j / 64)] = hp_out;
                    cw[2 * (j / 64) + 1] = hn_out;
                    hp_out = 0;
                    hn_out = 0;
                }
            }
            u64 ph_in = (ph << 1) | hp;
            u64 mh_in = (mh << 1) | hn;
            vp = mh_in | ~(xv | ph_in);
            vn = ph_in & xv;
        }
    }
    out[t] = score;
}
