// Batched unit-cost Levenshtein distance over u32 symbols (code points or
// word ids), one thread per pair: Myers' bit-parallel algorithm in Hyyrö's
// formulation (the same recurrence as kernels/src/levenshtein.rs, so both
// give the same distances).
//
// Thread t computes pair i = order[t] (the host sends the longest work
// first, so that neighbouring threads have about the same work): the
// distance between a[a_offs[i] .. a_offs[i+1]) and b[b_offs[i] ..
// b_offs[i+1]), into out[i]. The shorter side is the pattern.
// The pattern is cut into 64-symbol blocks and processed block by block
// (block-major): a block's 64 symbols sit in registers while the whole text
// streams past, so a match mask costs 64 register compares and no memory
// reads. Between blocks, the horizontal deltas of every text column (the
// carries, one +1 bit and one -1 bit per column) pass through
// carry[carry_offs[t] ..] (2 words per 64 text columns, for thread t;
// unused with a single block).

// Bits of block symbols equal to c: lanes [0, 32) and, when `wide`,
// [32, 64). Lanes past the pattern's end hold a copy of its last symbol,
// masked off by the caller.
#define LEV_MASK32(dst, base)                                        \
    MTEVAL_UNROLL for (u32 q = 0; q < 32; ++q) {                 \
        dst |= (u32)(sym[(base) + q] == c) << q;                     \
    }

extern "C" __global__ void lev_myers(
    const u32* __restrict__ a, const u64* __restrict__ a_offs,
    const u32* __restrict__ b, const u64* __restrict__ b_offs,
    const u32* __restrict__ order,
    u64* __restrict__ carry, const u64* __restrict__ carry_offs,
    u32* __restrict__ out, u32 n_pairs)
{
    u64 t = mteval_thread_index();
    if (t >= n_pairs) return;
    u32 i = order[t];
    const u32* p = a + a_offs[i];
    u32 m = (u32)(a_offs[i + 1] - a_offs[i]);
    const u32* x = b + b_offs[i];
    u32 n = (u32)(b_offs[i + 1] - b_offs[i]);
    if (m > n) {
        const u32* s = p; p = x; x = s;
        u32 l = m; m = n; n = l;
    }
    if (m == 0) { out[i] = n; return; }
    u64* cw = carry + carry_offs[t];
    u32 blocks = (m + 63) / 64;
    u32 score = m;
    for (u32 k = 0; k < blocks; ++k) {
        u32 lo = k * 64;
        u32 len = m - lo < 64 ? m - lo : 64;
        bool wide = len > 32;
        u64 valid = len == 64 ? ~0ULL : ((1ULL << len) - 1);
        u32 sym[64];
        MTEVAL_UNROLL for (u32 q = 0; q < 64; ++q) {
            sym[q] = p[lo + (q < len ? q : len - 1)];
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
    out[i] = score;
}
