// TER's whole greedy shift search on the device (sacrebleu's
// translation_edit_rate, metrics_spec.md §1.4; the CPU's is
// kernels/src/ter/shift.rs and beam.rs): one warp per segment, the words as
// integer ids. Per greedy round the warp's lane 0 computes the beam-banded
// edit distance of the current word order (keeping the rows before the
// last shift) and walks its trace into the alignment; the 32 lanes list the
// round's shift candidates in sacrebleu's order (each lane the starts it
// owns, at places lane 0 sums), then score them, each one's banded
// distance from the first row it changes; lane 0 takes the best by
// sacrebleu's ranking and applies it, until a round gains nothing or its
// candidates reach sacrebleu's cumulative budget of 1,000 (which ends the
// search whatever they score, so that round scores none). Only (edits,
// shifts) per segment come back.
//
// Warps are persistent: warp w runs the listed segments w, w + n_warps, ...
// (the host lists them longest first, so that the warps' loads even out).
//
// Buffers:
// - hyps, hyp_offs / refs, ref_offs: every pair's word ids (u64 bounds);
// - order[k]: the pair of slot k (0 <= k < n);
// - scratch, scr_offs[k]: slot k's own memory (ter_scratch_words: the word
//   order twice, the band, the row offsets of the banded matrix, the
//   alignment and its error prefix sums, then the banded cost matrix);
// - warp_mem: TER_WARP_WORDS per warp (control words, the lanes' best
//   candidates, the round's candidate list);
// - out[2 p], out[2 p + 1]: edits and shifts of pair p.
//
// A candidate's distance runs its DP in a ring of TER_RING cells in the
// lane's local memory, as the band allows: the host sends only pairs whose
// band rows below the last are at most TER_RING wide and whose rows start
// at most TER_RING columns before the previous row ends (sacrebleu's band
// keeps both at most about 52 for any pair whose reference is under 50
// times its hypothesis; the rest are searched on the CPU).

#define TER_INF 0x3FFFFFFFu
#define TER_RING 64u
#define TER_MAX_SHIFT_SIZE 10u
#define TER_MAX_SHIFT_DIST 50u
#define TER_MAX_CANDIDATES 1000u
#define TER_BEAM_WIDTH 25.0
// A round lists fewer candidates than the budget (a round that reaches it
// lists none).
#define TER_CAND_CAP 1000u
// Per warp: 8 control words, 32 lanes' best (4 words each), the candidates
// (3 words each).
#define TER_CTL_WORDS 8u
#define TER_WARP_WORDS (TER_CTL_WORDS + 32u * 4u + 3u * TER_CAND_CAP)

// Control words of a warp: the round's candidates, whether the segment is
// done, the budget count before the round.
#define TER_CTL_COUNT 0
#define TER_CTL_DONE 1
#define TER_CTL_START 2
// The round's candidates reach sacrebleu's budget (TER_CTL_COUNT).
#define TER_BUDGET_SPENT 0xFFFFFFFFu

// One segment's view of its buffers.
struct TerSeg {
    const u32* r;  // reference
    u32 n_h, n_r, w;
    u32* cur;      // current word order (n_h)
    u32* nxt;      // the next order while a shift is applied; the starts' counts and places while listing (n_h)
    u32* band;     // (lo, hi) per row 0..=n_h
    u32* rowoff;   // where row i starts in m (n_h + 1)
    u32* align;    // reference position -> hypothesis position + 1 (0: none)
    u32* herr;     // prefix sums of hypothesis errors (n_h + 1)
    u32* rerr;     // prefix sums of reference errors (n_r + 1)
    u32* m;        // banded cost matrix: row i holds columns band[2i] .. band[2i+1]
};

// Cell (i, j) of the banded matrix; infinite outside the band.
__device__ __forceinline__ u32 ter_cell(const TerSeg& s, u32 i, u32 j) {
    u32 lo = s.band[2 * i], hi = s.band[2 * i + 1];
    return j >= lo && j < hi ? s.m[s.rowoff[i] + (j - lo)] : TER_INF;
}

// sacrebleu's band (BeamEditDistance's pseudo-diagonal and beam, in its
// float64 arithmetic) and the row offsets of the banded matrix.
__device__ void ter_bands(TerSeg& s) {
    double ratio = s.n_h == 0 ? 1.0 : (double)s.n_r / (double)s.n_h;
    long long beam = 25;
    if (TER_BEAM_WIDTH < ratio / 2.0) beam = (long long)ceil(ratio / 2.0 + TER_BEAM_WIDTH);
    long long end = (long long)s.n_r + 1;
    s.band[0] = 0;
    s.band[1] = s.w;
    s.rowoff[0] = 0;
    u32 at = s.w;
    for (u32 i = 1; i <= s.n_h; ++i) {
        long long pd = (long long)floor((double)i * ratio);
        long long lo = pd - beam > 0 ? pd - beam : 0;
        long long hi = pd + beam < end ? pd + beam : end;
        if (i == s.n_h) hi = end;
        if (hi < lo) hi = lo;
        s.band[2 * i] = (u32)lo;
        s.band[2 * i + 1] = (u32)hi;
        s.rowoff[i] = at;
        at += (u32)(hi - lo);
    }
}

// Cells lo..hi of one DP row for hypothesis word h: `up(j)` reads the row
// above (infinite outside its band), `diag` is its cell lo - 1, and
// `put(j, v)` stores a cell (after up(j) is read: a ring may reuse it).
// Returns the last cell (infinite when none).
template <typename Up, typename Put>
__device__ __forceinline__ u32 ter_row(const u32* r, u32 h, u32 lo, u32 hi, u32 diag, Up up, Put put) {
    u32 left = TER_INF;
    for (u32 j = lo; j < hi; ++j) {
        u32 above = up(j);
        u32 v = above + 1;
        if (j > 0) {
            u32 best = h == r[j - 1] ? diag : diag + 1;
            if (above + 1 < best) best = above + 1;
            if (left + 1 < best) best = left + 1;
            v = best;
        }
        v = v < TER_INF ? v : TER_INF;
        put(j, v);
        diag = above;
        left = v;
    }
    return left;
}

// Rows from..n_h of the banded matrix of the current order (rows below
// `from` are those of the order before, which shares their words).
__device__ void ter_forward(TerSeg& s, u32 from) {
    if (from == 1) {
        for (u32 j = 0; j < s.w; ++j) s.m[j] = j;
    }
    for (u32 i = from; i <= s.n_h; ++i) {
        u32 lo = s.band[2 * i], hi = s.band[2 * i + 1];
        // The row above: its band and cells (infinite outside the band).
        u32 plo = s.band[2 * i - 2], phi = s.band[2 * i - 1];
        const u32* prev = s.m + s.rowoff[i - 1];
#define TER_UP(j) ((j) >= plo && (j) < phi ? prev[(j) - plo] : TER_INF)
        u32* row = s.m + s.rowoff[i];
        ter_row(s.r, s.cur[i - 1], lo, hi, lo > 0 ? TER_UP(lo - 1) : 0,
                [&](u32 j) { return TER_UP(j); }, [&](u32 j, u32 v) { row[j - lo] = v; });
#undef TER_UP
    }
}

// The trace of the matrix (sacrebleu's ops: ties to the diagonal, then
// up, then left), walked from the end, as the alignment the candidates
// need: for each reference word the hypothesis position + 1 aligned to it,
// and the error prefix sums of both sides.
__device__ void ter_align(TerSeg& s) {
    for (u32 j = 0; j < s.n_r; ++j) s.align[j] = 0;
    for (u32 k = 0; k <= s.n_h; ++k) s.herr[k] = 0;
    for (u32 k = 0; k <= s.n_r; ++k) s.rerr[k] = 0;
    u32 i = s.n_h, j = s.n_r;
    while (i > 0 || j > 0) {
        if (i == 0) {  // consume a reference word
            s.align[j - 1] = i;
            s.rerr[j] = 1;
            --j;
            continue;
        }
        if (ter_cell(s, i, j) >= TER_INF) break;  // unreachable: the last row spans every column
        if (j == 0) {  // consume a hypothesis word
            s.herr[i] = 1;
            --i;
            continue;
        }
        bool same = s.cur[i - 1] == s.r[j - 1];
        u32 d = ter_cell(s, i - 1, j - 1) + (same ? 0 : 1);
        u32 u = ter_cell(s, i - 1, j) + 1;
        u32 l = ter_cell(s, i, j - 1) + 1;
        if (d <= u && d <= l) {
            s.align[j - 1] = i;
            if (!same) {
                s.herr[i] = 1;
                s.rerr[j] = 1;
            }
            --i;
            --j;
        } else if (u <= l) {
            s.herr[i] = 1;
            --i;
        } else {
            s.align[j - 1] = i;
            s.rerr[j] = 1;
            --j;
        }
    }
    for (u32 k = 1; k <= s.n_h; ++k) s.herr[k] += s.herr[k - 1];
    for (u32 k = 1; k <= s.n_r; ++k) s.rerr[k] += s.rerr[k - 1];
}

// The candidates of start position sh, in sacrebleu's order:
// emit(len, target) for each.
template <typename Emit>
__device__ void ter_start_candidates(const TerSeg& s, u32 sh, Emit emit) {
    if (s.n_r == 0) return;
    u32 sr_lo = sh > TER_MAX_SHIFT_DIST ? sh - TER_MAX_SHIFT_DIST : 0;
    u32 sr_hi = sh + TER_MAX_SHIFT_DIST < s.n_r - 1 ? sh + TER_MAX_SHIFT_DIST : s.n_r - 1;
    for (u32 sr = sr_lo; sr <= sr_hi; ++sr) {
        if (s.r[sr] != s.cur[sh]) continue;
        u32 len = 0;
        while (len < TER_MAX_SHIFT_SIZE && s.cur[sh + len] == s.r[sr + len]) {
            ++len;
            // align[] holds position + 1: the block's aligned position
            // a lies in [sh, sh + len) iff a + 1 lies in [sh + 1, sh + len].
            u32 a1 = s.align[sr];
            bool skip = s.herr[sh + len] == s.herr[sh] || s.rerr[sr + len] == s.rerr[sr] ||
                        (a1 >= sh + 1 && a1 <= sh + len);
            if (!skip) {
                // Targets: 0 for the position before the reference's
                // start, else the aligned position + 1 of each reference
                // word of the match; repeats in a row once.
                u32 prev = 0xFFFFFFFFu;
                for (u32 off = 0; off <= len; ++off) {
                    u32 idx = (off == 0 && sr == 0) ? 0 : s.align[sr + off - 1];
                    if (idx == prev) continue;
                    prev = idx;
                    emit(len, idx);
                }
            }
            if (sh + len == s.n_h || sr + len == s.n_r) break;
        }
    }
}

// The round's candidates (start, len, target) in sacrebleu's order into
// cands, by the whole warp: each lane counts the candidates of its start
// positions (into cnt, n_h words); lane 0 turns the counts into each
// start's place; each lane lists its starts' candidates at their places.
// ctl[TER_CTL_COUNT] gets their number, or TER_BUDGET_SPENT when they
// bring the budget count (ctl[TER_CTL_START] before the round) to
// sacrebleu's limit: sacrebleu then stops listing within the round and
// ends the search whatever its candidates score, so none is listed.
__device__ void ter_enumerate(const TerSeg& s, u32 lane, u32* cnt, u32* ctl, u32* cands) {
    for (u32 sh = lane; sh < s.n_h; sh += 32) {
        u32 c = 0;
        ter_start_candidates(s, sh, [&](u32, u32) { ++c; });
        cnt[sh] = c;
    }
    __syncwarp(0xFFFFFFFFu);  // every start's count is written
    if (lane == 0) {
        u32 at = 0;
        for (u32 sh = 0; sh < s.n_h; ++sh) {
            u32 c = cnt[sh];
            cnt[sh] = at;
            at += c;
        }
        ctl[TER_CTL_COUNT] = ctl[TER_CTL_START] + at >= TER_MAX_CANDIDATES ? TER_BUDGET_SPENT : at;
    }
    __syncwarp(0xFFFFFFFFu);  // the places are written
    if (ctl[TER_CTL_COUNT] == TER_BUDGET_SPENT) return;
    for (u32 sh = lane; sh < s.n_h; sh += 32) {
        u32* c = cands + 3 * cnt[sh];
        ter_start_candidates(s, sh, [&](u32 len, u32 idx) {
            c[0] = sh;
            c[1] = len;
            c[2] = idx;
            c += 3;
        });
    }
}

// Index into the current order of word q of the order that moves the
// block cur[st .. st+len) before index `target` (sacrebleu's _perform_shift,
// target clamped to the length).
__device__ __forceinline__ u32 ter_shifted_index(u32 q, u32 n, u32 st, u32 len, u32 target) {
    u32 t = target < n ? target : n;
    if (t < st) {
        if (q < t) return q;
        if (q < t + len) return st + (q - t);
        if (q < st + len) return q - len;
        return q;
    }
    if (t > st + len) {
        if (q < st) return q;
        if (q < t - len) return q + len;
        if (q < t) return st + (q - (t - len));
        return q;
    }
    u32 e = len + t < n ? len + t : n;
    u32 k = e - st - len;
    if (q < st) return q;
    if (q < st + k) return q + len;
    if (q < e) return st + (q - st - k);
    return q;
}

// The banded distance of the order that moves cur[st .. st+len) before
// `target`: rows up to the first word it changes are the current order's
// (read from the matrix), the rest run in the lane's ring.
__device__ u32 ter_shifted_distance(const TerSeg& s, u32 st, u32 len, u32 target) {
    u32 n = s.n_h;
    u32 t = target < n ? target : n;
    u32 r0 = st < t ? st : t;  // rows 0..=r0 are the current order's (r0 < n: st < n)
    u32 ring[TER_RING];
    u32 prev_lo = s.band[2 * r0], prev_hi = s.band[2 * r0 + 1];
    if (r0 > 0) {
        for (u32 j = prev_lo; j < prev_hi; ++j) ring[j % TER_RING] = s.m[s.rowoff[r0] + (j - prev_lo)];
    }
    u32 last = TER_INF;
    for (u32 i = r0 + 1; i <= n; ++i) {
        u32 lo = s.band[2 * i], hi = s.band[2 * i + 1];
        u32 word = s.cur[ter_shifted_index(i - 1, n, st, len, target)];
        // Row 0 is implicit: cell j holds j.
#define TER_PREV(j) (i == 1 ? (j) : ((j) >= prev_lo && (j) < prev_hi ? ring[(j) % TER_RING] : TER_INF))
        u32 left = ter_row(s.r, word, lo, hi, lo > 0 ? TER_PREV(lo - 1) : 0,
                           [&](u32 j) { return TER_PREV(j); }, [&](u32 j, u32 v) { ring[j % TER_RING] = v; });
#undef TER_PREV
        // The last row always reaches column n_r.
        last = hi == s.w ? left : TER_INF;
        prev_lo = lo;
        prev_hi = hi;
    }
    return last;
}

// sacrebleu's ranking of candidates: larger (delta, len, -start, -target)
// is better. Keys are (delta + TER_INF + 1, len, start, target): the
// first word is never 0, which marks a lane with no candidate.
__device__ __forceinline__ bool ter_better(const u32* a, const u32* b) {
    if (a[0] != b[0]) return a[0] > b[0];
    if (a[1] != b[1]) return a[1] > b[1];
    if (a[2] != b[2]) return a[2] < b[2];
    return a[3] < b[3];
}

// scratch and warp_mem are shared by a warp's lanes (no __restrict__).
extern "C" __global__ void ter_search(
    const u32* __restrict__ hyps, const u64* __restrict__ hyp_offs,
    const u32* __restrict__ refs, const u64* __restrict__ ref_offs,
    const u32* __restrict__ order, u32* scratch, const u64* __restrict__ scr_offs,
    u32* warp_mem, u32* __restrict__ out, u32 n, u32 n_warps)
{
    u64 warp = mteval_thread_index() / 32;
    u32 lane = threadIdx.x % 32;
    if (warp >= n_warps) return;
    u32* ctl = warp_mem + warp * TER_WARP_WORDS;
    u32* best = ctl + TER_CTL_WORDS;
    u32* cands = best + 32 * 4;
    for (u64 k = warp; k < n; k += n_warps) {
        u32 p = order[k];
        TerSeg s;
        const u32* h = hyps + hyp_offs[p];
        s.n_h = (u32)(hyp_offs[p + 1] - hyp_offs[p]);
        s.r = refs + ref_offs[p];
        s.n_r = (u32)(ref_offs[p + 1] - ref_offs[p]);
        s.w = s.n_r + 1;
        u32* base = scratch + scr_offs[k];
        s.cur = base;
        s.nxt = s.cur + s.n_h;
        s.band = s.nxt + s.n_h;
        s.rowoff = s.band + 2 * (s.n_h + 1);
        s.align = s.rowoff + (s.n_h + 1);
        s.herr = s.align + s.n_r;
        s.rerr = s.herr + (s.n_h + 1);
        s.m = s.rerr + (s.n_r + 1);
        // Lane 0's own state across the rounds.
        u32 checked = 0, shifts = 0, from = 1, dist = 0;
        __syncwarp(0xFFFFFFFFu);  // the lanes have read the last segment's control words
        if (lane == 0) {
            for (u32 q = 0; q < s.n_h; ++q) s.cur[q] = h[q];
            ter_bands(s);
        }
        for (;;) {
            __syncwarp(0xFFFFFFFFu);  // the lanes have read the last round's control words
            if (lane == 0) {
                ter_forward(s, from);
                dist = ter_cell(s, s.n_h, s.n_r);
                ter_align(s);
                ctl[TER_CTL_START] = checked;
            }
            __syncwarp(0xFFFFFFFFu);  // the matrix, the band and the alignment are written
            ter_enumerate(s, lane, s.nxt, ctl, cands);
            __syncwarp(0xFFFFFFFFu);  // the candidates are written
            bool spent = ctl[TER_CTL_COUNT] == TER_BUDGET_SPENT;
            u32 count = spent ? 0 : ctl[TER_CTL_COUNT];
            if (lane == 0) checked = spent ? TER_MAX_CANDIDATES : checked + count;
            u32 pre = ter_cell(s, s.n_h, s.n_r);
            u32 mine[4] = {0, 0, 0, 0};
            bool any = false;
            for (u32 c = lane; c < count; c += 32) {
                u32 st = cands[3 * c], len = cands[3 * c + 1], target = cands[3 * c + 2];
                u32 d = ter_shifted_distance(s, st, len, target);
                u32 key[4] = {pre + TER_INF + 1 - d, len, st, target};
                if (!any || ter_better(key, mine)) {
                    for (u32 x = 0; x < 4; ++x) mine[x] = key[x];
                }
                any = true;
            }
            for (u32 x = 0; x < 4; ++x) best[4 * lane + x] = any ? mine[x] : 0;
            __syncwarp(0xFFFFFFFFu);  // every lane's best is written
            if (lane == 0) {
                const u32* top = nullptr;
                for (u32 l = 0; l < 32; ++l) {
                    const u32* b = best + 4 * l;
                    if (b[0] == 0) continue;  // no candidate
                    if (top == nullptr || ter_better(b, top)) top = b;
                }
                bool gain = top != nullptr && top[0] > TER_INF + 1;  // delta > 0
                if (checked >= TER_MAX_CANDIDATES || !gain) {
                    ctl[TER_CTL_DONE] = 1;
                    out[2 * (u64)p] = shifts + dist;
                    out[2 * (u64)p + 1] = shifts;
                } else {
                    u32 st = top[2], len = top[1], target = top[3];
                    for (u32 q = 0; q < s.n_h; ++q) s.nxt[q] = s.cur[ter_shifted_index(q, s.n_h, st, len, target)];
                    for (u32 q = 0; q < s.n_h; ++q) s.cur[q] = s.nxt[q];
                    ++shifts;
                    u32 t = target < s.n_h ? target : s.n_h;
                    from = (st < t ? st : t) + 1;
                    ctl[TER_CTL_DONE] = 0;
                }
            }
            __syncwarp(0xFFFFFFFFu);  // the decision is written
            if (ctl[TER_CTL_DONE]) break;
        }
    }
}
