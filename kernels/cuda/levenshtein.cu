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

// Pair i's two sides, the shorter one as the pattern p (m symbols), the
// other as the text x (n symbols).
struct LevPair {
    const u32* p;
    u32 m;
    const u32* x;
    u32 n;
};

__device__ __forceinline__ LevPair lev_pair(const u32* a, const u64* a_offs, const u32* b, const u64* b_offs, u32 i)
{
    LevPair q = {a + a_offs[i], (u32)(a_offs[i + 1] - a_offs[i]), b + b_offs[i], (u32)(b_offs[i + 1] - b_offs[i])};
    if (q.m > q.n) return {q.x, q.n, q.p, q.m};
    return q;
}

// One text column through one block (Hyyrö's step): eq_b = the block's
// match mask for the column's symbol, (hp, hn) = the horizontal delta
// entering the block. Updates the vertical deltas (vp, vn) and gives the
// horizontal deltas (ph, mh) of every row of the block.
__device__ __forceinline__ void lev_advance(u64 eq_b, u64 hp, u64 hn, u64& vp, u64& vn, u64& ph, u64& mh) {
    u64 xv = eq_b | vn;
    u64 eq = eq_b | hn;
    u64 xh = (((eq & vp) + vp) ^ vp) | eq;
    ph = vn | ~(xh | vp);
    mh = vp & xh;
    u64 ph_in = (ph << 1) | hp;
    u64 mh_in = (mh << 1) | hn;
    vp = mh_in | ~(xv | ph_in);
    vn = ph_in & xv;
}

// Collects the bits leaving a block's last row at text column j (bit j % 64
// of a word) and stores each full word (and the last) at cw.
__device__ __forceinline__ void lev_carry_out(u64* cw, u32 j, u32 n, u64 p_bit, u64 n_bit, u64& hp_out, u64& hn_out) {
    u32 bit = j % 64;
    hp_out |= p_bit << bit;
    hn_out |= n_bit << bit;
    if (bit == 63 || j + 1 == n) {
        cw[2 * (j / 64)] = hp_out;
        cw[2 * (j / 64) + 1] = hn_out;
        hp_out = 0;
        hn_out = 0;
    }
}

// The arguments of both distance kernels: the pairs' symbols (a, b) and
// offsets, the order pairs are taken in, the carries between pattern blocks
// and their offsets, the distances written by pair index, the pair count.
#define LEV_KERNEL_ARGS \
    const u32* __restrict__ a, const u64* __restrict__ a_offs, const u32* __restrict__ b, \
    const u64* __restrict__ b_offs, const u32* __restrict__ order, u64* __restrict__ carry, \
    const u64* __restrict__ carry_offs, u32* __restrict__ out, u32 n_pairs

extern "C" __global__ void lev_myers(LEV_KERNEL_ARGS)
{
    u64 t = mteval_thread_index();
    if (t >= n_pairs) return;
    u32 i = order[t];
    auto [p, m, x, n] = lev_pair(a, a_offs, b, b_offs, i);
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
            u64 ph, mh;
            lev_advance(eq_b, hp, hn, vp, vn, ph, mh);
            if (last) {
                score = score + (u32)((ph >> last_bit) & 1) - (u32)((mh >> last_bit) & 1);
            } else {
                lev_carry_out(cw, j, n, ph >> 63, mh >> 63, hp_out, hn_out);
            }
        }
    }
    out[i] = score;
}

// The same distances with one warp per pair (32 threads), for patterns of
// several blocks: lane k holds pattern block k of a group of up to 32
// blocks in registers, and the lanes sweep the text as a wavefront. At step
// s, lane k computes text column j = s - k; the horizontal delta leaving its
// block at column j is what lane k + 1 needs at column j, one step later,
// so it passes down the warp with one shuffle per step. A pattern of more
// than 32 blocks is done in groups of 32: the group's last lane writes its
// carries (2 words per 64 text columns) to carry[carry_offs[w] ..] and the
// next group's first lane reads them, as in lev_myers. Warp w computes pair
// i = order[w]. Same recurrence, hence the same distances, as lev_myers.
extern "C" __global__ void lev_warp(LEV_KERNEL_ARGS)
{
    u64 t = mteval_thread_index();
    u64 w = t / 32;
    u32 lane = (u32)(t % 32);
    // Uniform per warp: a warp is whole or absent.
    if (w >= n_pairs) return;
    u32 i = order[w];
    auto [p, m, x, n] = lev_pair(a, a_offs, b, b_offs, i);
    if (m == 0) {
        if (lane == 0) out[i] = n;
        return;
    }
    u64* cw = carry + carry_offs[w];
    u32 blocks = (m + 63) / 64;
    u32 score = m;
    for (u32 g0 = 0; g0 < blocks; g0 += 32) {
        u32 gb = blocks - g0 < 32 ? blocks - g0 : 32;
        u32 k = g0 + lane;
        bool active = lane < gb;
        u32 lo = active ? k * 64 : 0;
        u32 len = active ? (m - lo < 64 ? m - lo : 64) : 1;
        u64 valid = len == 64 ? ~0ULL : ((1ULL << len) - 1);
        // The block bit-sliced: bit q of sl[b] is bit b of symbol q. Bits
        // that all the block's symbols share (`same`, with values those of
        // s0) need no slice: a symbol that differs there matches nothing,
        // and only bits below `width` vary. A match mask then costs one
        // 64-bit AND per varying bit instead of 64 compares, and the block
        // takes 42 registers instead of 64.
        u64 sl[21];
        MTEVAL_UNROLL for (u32 b = 0; b < 21; ++b) sl[b] = 0;
        u32 s0 = p[lo];
        u32 same = 0x1FFFFFu;
        MTEVAL_UNROLL for (u32 q = 0; q < 64; ++q) {
            u32 v = p[lo + (q < len ? q : len - 1)];
            same &= ~(v ^ s0);
            MTEVAL_UNROLL for (u32 b = 0; b < 21; ++b) sl[b] |= (u64)((v >> b) & 1) << q;
        }
        u32 vary = ~same & 0x1FFFFFu;
        u32 width = vary == 0 ? 0 : 32 - __clz(vary);
        bool first = k == 0, last = k + 1 == blocks;
        bool reads = lane == 0 && !first;
        bool writes = lane + 1 == gb && !last;
        u32 last_bit = len - 1;
        u64 vp = ~0ULL, vn = 0;
        u64 hp_in = 0, hn_in = 0, hp_out = 0, hn_out = 0;
        u32 up_p = 0, up_n = 0;
        u32 steps = n + gb - 1;
        for (u32 s = 0; s < steps; ++s) {
            u32 give_p = 0, give_n = 0;
            if (active && s >= lane && s - lane < n) {
                u32 j = s - lane;
                u32 bit = j % 64;
                if (reads && bit == 0) {
                    hp_in = cw[2 * (j / 64)];
                    hn_in = cw[2 * (j / 64) + 1];
                }
                u32 c = x[j];
                u64 eq_b = 0;
                if (((c ^ s0) & same) == 0) {
                    eq_b = valid;
                    MTEVAL_UNROLL for (u32 b = 0; b < 21; ++b) {
                        if (b >= width) break;
                        eq_b &= sl[b] ^ ((u64)(((c >> b) & 1) ^ 1) * ~0ULL);
                    }
                }
                u64 hp, hn;
                if (first) { hp = 1; hn = 0; }
                else if (reads) { hp = (hp_in >> bit) & 1; hn = (hn_in >> bit) & 1; }
                else { hp = up_p; hn = up_n; }
                u64 ph, mh;
                lev_advance(eq_b, hp, hn, vp, vn, ph, mh);
                if (last) {
                    score = score + (u32)((ph >> last_bit) & 1) - (u32)((mh >> last_bit) & 1);
                } else {
                    give_p = (u32)(ph >> 63);
                    give_n = (u32)(mh >> 63);
                    if (writes) lev_carry_out(cw, j, n, give_p, give_n, hp_out, hn_out);
                }
            }
            // Both bits in one shuffle.
            u32 got = __shfl_up_sync(0xffffffffu, give_p | (give_n << 1), 1);
            up_p = got & 1;
            up_n = got >> 1;
        }
        // The group's carries are in memory before the next group reads them.
        __syncwarp(0xffffffffu);
        if (active && last) out[i] = score;
    }
}

// UTF-8 to code points, one thread per string: string s, byte_lens[s]
// bytes packed four to a u32 (little endian) from words[word_offs[s]] on,
// is written as code points to cps[cp_offs[s] ..]. The text comes from
// Rust strings, so it is valid UTF-8, and the host has counted its code
// points (cp_offs).
extern "C" __global__ void utf8_decode(
    const u32* __restrict__ words, const u64* __restrict__ word_offs,
    const u32* __restrict__ byte_lens,
    u32* __restrict__ cps, const u64* __restrict__ cp_offs, u32 n_strings)
{
    u64 s = mteval_thread_index();
    if (s >= n_strings) return;
    const unsigned char* src = (const unsigned char*)(words + word_offs[s]);
    u32 at = 0, end = byte_lens[s];
    u32* dst = cps + cp_offs[s];
    while (at < end) {
        u32 c = src[at];
        if (c < 0x80) {
            at += 1;
        } else if (c < 0xE0) {
            c = ((c & 0x1F) << 6) | (src[at + 1] & 0x3F);
            at += 2;
        } else if (c < 0xF0) {
            c = ((c & 0x0F) << 12) | ((src[at + 1] & 0x3F) << 6) | (src[at + 2] & 0x3F);
            at += 3;
        } else {
            c = ((c & 0x07) << 18) | ((src[at + 1] & 0x3F) << 12) | ((src[at + 2] & 0x3F) << 6) | (src[at + 3] & 0x3F);
            at += 4;
        }
        *dst++ = c;
    }
}
