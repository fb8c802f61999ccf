// chrF n-gram statistics (sacrebleu 2.6.0 CHRF / fastchrf 0.2.1; see
// kernels/src/chrf). Strings arrive as u32 symbols: code points with
// whitespace removed for character n-grams, batch-wide word ids for word
// n-grams. An n-gram of order n <= 6 over symbols below 2^21 packs exactly
// into 126 bits (hi, lo), so keys are exact, never hashes, and counts equal
// the CPU backend's.
//
// Work item "profile" (s, o): string s, order index o (character orders
// 1..=char_order first, then word orders). Its key area starts at
// key_offs[s * orders + o] and holds one slot per window.

// Whether key a < key b.
__device__ __forceinline__ bool chrf_less(const u64* hi, const u64* lo, u32 a, u32 b) {
    return hi[a] < hi[b] || (hi[a] == hi[b] && lo[a] < lo[b]);
}

__device__ __forceinline__ void chrf_swap(u64* hi, u64* lo, u32 a, u32 b) {
    u64 th = hi[a], tl = lo[a];
    hi[a] = hi[b]; lo[a] = lo[b];
    hi[b] = th; lo[b] = tl;
}

// Moves keys[root] down the max-heap keys[0 .. end).
__device__ void chrf_sift_down(u64* hi, u64* lo, u32 root, u32 end) {
    for (;;) {
        u32 child = 2 * root + 1;
        if (child >= end) return;
        if (child + 1 < end && chrf_less(hi, lo, child, child + 1)) child++;
        if (!chrf_less(hi, lo, root, child)) return;
        chrf_swap(hi, lo, root, child);
        root = child;
    }
}

// Sorts keys[0 .. n) ascending, in place (heap sort: no extra memory).
__device__ void chrf_heap_sort(u64* hi, u64* lo, u32 n) {
    if (n < 2) return;
    for (u32 start = n / 2; start-- > 0;) chrf_sift_down(hi, lo, start, n);
    for (u32 end = n - 1; end > 0; --end) {
        chrf_swap(hi, lo, 0, end);
        chrf_sift_down(hi, lo, 0, end);
    }
}

// The symbols of profile (s, o) and its n-gram order.
__device__ __forceinline__ void chrf_order_seq(
    const u32* chars, const u64* char_offs, const u32* words, const u64* word_offs, u32 char_order,
    u32 s, u32 o, const u32** sym, u64* len, u32* n)
{
    if (o < char_order) {
        *sym = chars + char_offs[s];
        *len = char_offs[s + 1] - char_offs[s];
        *n = o + 1;
    } else {
        *sym = words + word_offs[s];
        *len = word_offs[s + 1] - word_offs[s];
        *n = o - char_order + 1;
    }
}

// The key of the n symbols at sym: 21 bits each, packed into (hi, lo).
__device__ __forceinline__ void chrf_pack(const u32* sym, u32 n, u64* hi, u64* lo) {
    u64 h = 0, l = 0;
    for (u32 k = 0; k < n; ++k) {
        h = (h << 21) | (l >> 43);
        l = (l << 21) | (u64)sym[k];
    }
    *hi = h;
    *lo = l;
}

// The profile that owns key slot `slot`: the last a in [a, b) with
// key_offs[a] <= slot.
__device__ __forceinline__ u64 chrf_owner(const u64* key_offs, u64 a, u64 b, u64 slot) {
    while (b - a > 1) {
        u64 mid = a + (b - a) / 2;
        if (key_offs[mid] <= slot) a = mid; else b = mid;
    }
    return a;
}

// The window a thread of the per-window passes takes: its key slot, its
// profile a and the profile's slots [base, end). False when there is none:
// past the last slot, or a profile of more than max_windows windows.
struct ChrfWindow {
    u64 slot, a, base, end;
};

__device__ __forceinline__ bool chrf_window(const u64* key_offs, u64 n_profiles, u32 max_windows, ChrfWindow* w) {
    w->slot = mteval_thread_index();
    if (w->slot >= key_offs[n_profiles]) return false;
    w->a = chrf_owner(key_offs, 0, n_profiles, w->slot);
    w->base = key_offs[w->a];
    w->end = key_offs[w->a + 1];
    return w->end - w->base <= max_windows;
}

// Profiles are built in parallel, one thread per window, in three passes
// over the windows of each profile (at most `max_windows` of them; a
// larger profile is left to chrf_profiles):
// - chrf_windows: window w's key into raw_hi/raw_lo[slot];
// - chrf_rank: mark[slot] = how many windows hold the key, on its first
//   window, 0 on the others;
// - chrf_compact: each first window's key and count go to the place of its
//   key among the profile's distinct keys, sorted ascending, and window 0
//   writes n_uniq.
// Each pass is one pass of a thread over its profile's windows, so a
// sentence's profile costs about as many steps as it has windows, spread
// over as many threads; the result is chrf_profiles' exactly.
extern "C" __global__ void chrf_windows(
    const u32* __restrict__ chars, const u64* __restrict__ char_offs,
    const u32* __restrict__ words, const u64* __restrict__ word_offs,
    const u64* __restrict__ key_offs, u64* __restrict__ raw_hi, u64* __restrict__ raw_lo,
    u32 n_strings, u32 char_order, u32 word_order, u32 max_windows)
{
    u32 orders = char_order + word_order;
    ChrfWindow w;
    if (!chrf_window(key_offs, (u64)n_strings * orders, max_windows, &w)) return;
    const u32* sym;
    u64 len;
    u32 n;
    chrf_order_seq(chars, char_offs, words, word_offs, char_order, (u32)(w.a / orders), (u32)(w.a % orders), &sym, &len, &n);
    chrf_pack(sym + (w.slot - w.base), n, raw_hi + w.slot, raw_lo + w.slot);
}

extern "C" __global__ void chrf_rank(
    const u64* __restrict__ key_offs, const u64* __restrict__ raw_hi, const u64* __restrict__ raw_lo,
    u32* __restrict__ mark, u32 n_profiles, u32 max_windows)
{
    ChrfWindow w;
    if (!chrf_window(key_offs, n_profiles, max_windows, &w)) return;
    u64 kh = raw_hi[w.slot], kl = raw_lo[w.slot];
    u32 same = 0;
    for (u64 j = w.base; j < w.end; ++j) {
        if (raw_hi[j] == kh && raw_lo[j] == kl) {
            if (j < w.slot) {
                mark[w.slot] = 0;
                return;
            }
            ++same;
        }
    }
    mark[w.slot] = same;
}

extern "C" __global__ void chrf_compact(
    const u64* __restrict__ key_offs, const u64* __restrict__ raw_hi, const u64* __restrict__ raw_lo,
    const u32* __restrict__ mark, u64* __restrict__ key_hi, u64* __restrict__ key_lo, u32* __restrict__ counts,
    u32* __restrict__ n_uniq, u32 n_profiles, u32 max_windows)
{
    ChrfWindow w;
    if (!chrf_window(key_offs, n_profiles, max_windows, &w)) return;
    if (w.slot == w.base) {
        u32 distinct = 0;
        for (u64 j = w.base; j < w.end; ++j) distinct += mark[j] > 0;
        n_uniq[w.a] = distinct;
    }
    if (mark[w.slot] == 0) return;
    u64 kh = raw_hi[w.slot], kl = raw_lo[w.slot];
    u32 below = 0;
    for (u64 j = w.base; j < w.end; ++j) {
        below += mark[j] > 0 && (raw_hi[j] < kh || (raw_hi[j] == kh && raw_lo[j] < kl));
    }
    key_hi[w.base + below] = kh;
    key_lo[w.base + below] = kl;
    counts[w.base + below] = mark[w.slot];
}

// Builds each profile of more than `min_windows` windows (one thread a
// profile): packs every window, sorts, and compacts it into distinct keys
// with counts; n_uniq[s * orders + o] = number of keys.
extern "C" __global__ void chrf_profiles(
    const u32* __restrict__ chars, const u64* __restrict__ char_offs,
    const u32* __restrict__ words, const u64* __restrict__ word_offs,
    u64* __restrict__ key_hi, u64* __restrict__ key_lo, u32* __restrict__ counts,
    const u64* __restrict__ key_offs, u32* __restrict__ n_uniq,
    u32 n_strings, u32 char_order, u32 word_order, u32 min_windows)
{
    u64 t = mteval_thread_index();
    u32 orders = char_order + word_order;
    if (t >= (u64)n_strings * orders) return;
    u32 s = (u32)(t / orders), o = (u32)(t % orders);
    const u32* sym;
    u64 len;
    u32 n;
    chrf_order_seq(chars, char_offs, words, word_offs, char_order, s, o, &sym, &len, &n);
    u64* hi = key_hi + key_offs[t];
    u64* lo = key_lo + key_offs[t];
    u32* cnt = counts + key_offs[t];
    if (len < n) { n_uniq[t] = 0; return; }
    u32 windows = (u32)(len - n + 1);
    if (windows <= min_windows) return;  // ranked in parallel (chrf_windows, chrf_rank, chrf_compact)
    for (u32 w = 0; w < windows; ++w) chrf_pack(sym + w, n, hi + w, lo + w);
    chrf_heap_sort(hi, lo, windows);
    u32 u = 0;
    for (u32 w = 0; w < windows; ++w) {
        if (u > 0 && hi[u - 1] == hi[w] && lo[u - 1] == lo[w]) {
            cnt[u - 1] += 1;
        } else {
            hi[u] = hi[w];
            lo[u] = lo[w];
            cnt[u] = 1;
            u++;
        }
    }
    n_uniq[t] = u;
}

// Σ_g min(count_a[g], count_b[g]) of two sorted profiles.
__device__ u64 chrf_clipped(const u64* ah, const u64* al, const u32* ac, u32 na,
                            const u64* bh, const u64* bl, const u32* bc, u32 nb) {
    u32 i = 0, j = 0;
    u64 m = 0;
    while (i < na && j < nb) {
        if (ah[i] < bh[j] || (ah[i] == bh[j] && al[i] < bl[j])) {
            i++;
        } else if (ah[i] == bh[j] && al[i] == bl[j]) {
            m += ac[i] < bc[j] ? ac[i] : bc[j];
            i++;
            j++;
        } else {
            j++;
        }
    }
    return m;
}

__device__ __forceinline__ u64 chrf_pair(
    const u64* key_hi, const u64* key_lo, const u32* counts, const u64* key_offs, const u32* n_uniq,
    u32 orders, u32 h, u32 r, u32 o)
{
    u64 a = (u64)h * orders + o, b = (u64)r * orders + o;
    return chrf_clipped(key_hi + key_offs[a], key_lo + key_offs[a], counts + key_offs[a], n_uniq[a],
                        key_hi + key_offs[b], key_lo + key_offs[b], counts + key_offs[b], n_uniq[b]);
}

// Clipped matches (below 2^32: the host refuses longer strings) of listed
// pairs: out[p * orders + o] for pair p =
// (pairs[2p], pairs[2p+1]) = (hypothesis string, reference string).
extern "C" __global__ void chrf_match_list(
    const u64* __restrict__ key_hi, const u64* __restrict__ key_lo, const u32* __restrict__ counts,
    const u64* __restrict__ key_offs, const u32* __restrict__ n_uniq,
    const u32* __restrict__ pairs, u32* __restrict__ out, u32 n_pairs, u32 orders)
{
    u64 t = mteval_thread_index();
    if (t >= (u64)n_pairs * orders) return;
    u32 p = (u32)(t / orders), o = (u32)(t % orders);
    out[t] = (u32)chrf_pair(key_hi, key_lo, counts, key_offs, n_uniq, orders, pairs[2 * p], pairs[2 * p + 1], o);
}

// Clipped matches of every (hypothesis, reference) of a group (MBR's
// pairwise matrix): out[(j * n_refs + k) * orders + o] for hypothesis
// string h0 + j and reference string r0 + k. Clipped matches are symmetric,
// so when the hypotheses are the references (MBR's usual case) only the
// threads with j <= k merge, and they write both (j, k) and (k, j); the
// other half of the warps return at once.
extern "C" __global__ void chrf_match_grid(
    const u64* __restrict__ key_hi, const u64* __restrict__ key_lo, const u32* __restrict__ counts,
    const u64* __restrict__ key_offs, const u32* __restrict__ n_uniq,
    u32* __restrict__ out, u32 h0, u32 n_hyps, u32 r0, u32 n_refs, u32 orders)
{
    u64 t = mteval_thread_index();
    if (t >= (u64)n_hyps * n_refs * orders) return;
    u32 o = (u32)(t % orders);
    u64 pk = t / orders;
    u32 j = (u32)(pk / n_refs), k = (u32)(pk % n_refs);
    bool square = h0 == r0 && n_hyps == n_refs;
    if (square && j > k) return;
    u32 m = (u32)chrf_pair(key_hi, key_lo, counts, key_offs, n_uniq, orders, h0 + j, r0 + k, o);
    out[t] = m;
    if (square && j < k) out[((u64)k * n_refs + j) * orders + o] = m;
}

// Count of key (kh, kl) in a sorted profile (binary search), 0 if absent.
__device__ __forceinline__ u32 chrf_count_of(const u64* hi, const u64* lo, const u32* cnt, u32 n, u64 kh, u64 kl) {
    u32 a = 0, b = n;
    while (a < b) {
        u32 mid = a + (b - a) / 2;
        if (hi[mid] < kh || (hi[mid] == kh && lo[mid] < kl)) a = mid + 1; else b = mid;
    }
    return (a < n && hi[a] == kh && lo[a] == kl) ? cnt[a] : 0;
}

// fastchrf's aggregate chrF: one thread per distinct n-gram g of a
// hypothesis profile adds min(mult[j] * count_j[g], Σ_k count_k[g]) to
// out[j * orders + o], the sum running over references r0 .. r0+n_refs
// except string skip[j] (u32 max: none). Slot `t` is a key slot of the
// hypothesis strings h0 .. h0+n_hyps (key_offs is searched for its owner).
extern "C" __global__ void chrf_aggregate(
    const u64* __restrict__ key_hi, const u64* __restrict__ key_lo, const u32* __restrict__ counts,
    const u64* __restrict__ key_offs, const u32* __restrict__ n_uniq,
    const u32* __restrict__ skip, const u64* __restrict__ mult, unsigned long long* __restrict__ out,
    u32 h0, u32 n_hyps, u32 r0, u32 n_refs, u32 orders)
{
    u64 base = key_offs[(u64)h0 * orders];
    u64 end = key_offs[(u64)(h0 + n_hyps) * orders];
    u64 slot = base + mteval_thread_index();
    if (slot >= end) return;
    u64 a = chrf_owner(key_offs, (u64)h0 * orders, (u64)(h0 + n_hyps) * orders, slot);
    u64 e = slot - key_offs[a];
    if (e >= n_uniq[a]) return;
    u32 j = (u32)(a / orders) - h0, o = (u32)(a % orders);
    u64 kh = key_hi[slot], kl = key_lo[slot];
    u64 bag = 0;
    for (u32 k = 0; k < n_refs; ++k) {
        u32 r = r0 + k;
        if (r == skip[j]) continue;
        u64 q = (u64)r * orders + o;
        bag += chrf_count_of(key_hi + key_offs[q], key_lo + key_offs[q], counts + key_offs[q], n_uniq[q], kh, kl);
    }
    u64 own = mult[j] * (u64)counts[slot];
    atomicAdd(&out[(u64)j * orders + o], own < bag ? own : bag);
}

// MBR's expected chrF utility, reduced on the device. `matches` is
// chrf_match_grid's output for hypotheses h0 .. h0+n_hyps against
// references r0 .. r0+n_refs; thread j gives out[j] = the mean over the
// references k != skip[j] (u32 max: none) of chrF(hypothesis j, reference
// k), as float64 bits, or NaN bits when no reference is left. Bit for bit
// the CPU's value (kernels/src/chrf: f_score, then numpy's pairwise mean),
// because each float64 operation is the same, in the same order, and the
// kernels are compiled without fused multiply-adds (--fmad=false).
// totals[s * orders + o]: the n-gram windows of string s at order o;
// params = [beta's bits, eps_smoothing].

#define CHRF_EPS 1e-16

struct ChrfRow {
    const u32* m;      // this hypothesis's row of matches: m[k * orders + o]
    const u64* ht;     // its totals per order
    const u64* rt;     // totals of reference r0
    u32 orders;
    u32 skip;
    double beta;
    bool eps_smoothing;
};

// sacrebleu's chrF from one pair's statistics (kernels/src/chrf f_score).
__device__ double chrf_f_score(const ChrfRow& w, u32 k) {
    double factor = w.beta * w.beta;
    double score = 0.0, avg_p = 0.0, avg_r = 0.0;
    u32 eff = 0;
    for (u32 o = 0; o < w.orders; ++o) {
        u64 rt = w.rt[(u64)k * w.orders + o];
        u64 h = rt == 0 ? 0 : w.ht[o];
        u64 mm = rt == 0 ? 0 : w.m[(u64)k * w.orders + o];
        double p = h > 0 ? (double)mm / (double)h : CHRF_EPS;
        double rc = rt > 0 ? (double)mm / (double)rt : CHRF_EPS;
        double denom = factor * p + rc;
        score += denom > 0.0 ? (1.0 + factor) * p * rc / denom : CHRF_EPS;
        if (h > 0 && rt > 0) {
            avg_p += p;
            avg_r += rc;
            eff += 1;
        }
    }
    if (w.eps_smoothing) return 100.0 * score / (double)w.orders;
    if (eff == 0) {
        avg_p = 0.0;
        avg_r = 0.0;
    } else {
        avg_p /= (double)eff;
        avg_r /= (double)eff;
    }
    if (avg_p + avg_r == 0.0) return 0.0;
    double s = (1.0 + factor) * avg_p * avg_r;
    s /= factor * avg_p + avg_r;
    return 100.0 * s;
}

// Value q of the row with reference `skip` left out.
__device__ __forceinline__ double chrf_row_at(const ChrfRow& w, u32 q) {
    return chrf_f_score(w, q >= w.skip ? q + 1 : q);
}

// numpy's pairwise sum of values lo .. lo+n of the row (kernels/src/py
// numpy_sum), for n <= 128: 8 accumulators, then the rest in order.
__device__ double chrf_leaf_sum(const ChrfRow& w, u32 lo, u32 n) {
    if (n < 8) {
        double r = 0.0;
        for (u32 i = 0; i < n; ++i) r = r + chrf_row_at(w, lo + i);
        return r;
    }
    double r[8];
    for (u32 j = 0; j < 8; ++j) r[j] = chrf_row_at(w, lo + j);
    u32 i = 8;
    for (; i < n - n % 8; i += 8) {
        for (u32 j = 0; j < 8; ++j) r[j] = r[j] + chrf_row_at(w, lo + i + j);
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res = res + chrf_row_at(w, lo + i);
    return res;
}

// The whole pairwise sum: above 128 values numpy splits the range in two
// at a multiple of 8 and adds the halves' sums. Walked with an explicit
// stack (no recursion, whose stack a GPU cannot size in advance): 2^32
// values split at most 26 times.
#define CHRF_SUM_DEPTH 28
__device__ double chrf_pairwise_sum(const ChrfRow& w, u32 lo0, u32 n0) {
    u32 lo[CHRF_SUM_DEPTH], n[CHRF_SUM_DEPTH], state[CHRF_SUM_DEPTH];
    double left[CHRF_SUM_DEPTH];
    int sp = 0;
    lo[0] = lo0;
    n[0] = n0;
    state[0] = 0;
    double ret = 0.0;
    for (;;) {
        if (state[sp] == 0 && n[sp] <= 128) {
            // A leaf: its sum goes back to the range above.
            ret = chrf_leaf_sum(w, lo[sp], n[sp]);
            if (sp == 0) return ret;
            --sp;
            continue;
        }
        u32 n2 = n[sp] / 2;
        n2 -= n2 % 8;
        if (state[sp] == 0) {
            // First the left half.
            state[sp] = 1;
            lo[sp + 1] = lo[sp];
            n[sp + 1] = n2;
        } else if (state[sp] == 1) {
            // The left half's sum is back: then the right half.
            left[sp] = ret;
            state[sp] = 2;
            lo[sp + 1] = lo[sp] + n2;
            n[sp + 1] = n[sp] - n2;
        } else {
            ret = left[sp] + ret;
            if (sp == 0) return ret;
            --sp;
            continue;
        }
        state[sp + 1] = 0;
        ++sp;
    }
}

extern "C" __global__ void chrf_mean_utility(
    const u32* __restrict__ matches, const u64* __restrict__ totals, const u32* __restrict__ skip,
    const u64* __restrict__ params, u64* __restrict__ out,
    u32 h0, u32 n_hyps, u32 r0, u32 n_refs, u32 orders)
{
    u64 j = mteval_thread_index();
    if (j >= n_hyps) return;
    ChrfRow w;
    w.m = matches + j * n_refs * orders;
    w.ht = totals + ((u64)h0 + j) * orders;
    w.rt = totals + (u64)r0 * orders;
    w.orders = orders;
    w.skip = skip[j] < n_refs ? skip[j] : 0xFFFFFFFFu;
    w.beta = __longlong_as_double((long long)params[0]);
    w.eps_smoothing = params[1] != 0;
    u32 n = w.skip == 0xFFFFFFFFu ? n_refs : n_refs - 1;
    double mean = n == 0 ? __longlong_as_double(0x7FF8000000000000LL) : chrf_pairwise_sum(w, 0, n) / (double)n;
    out[j] = (u64)__double_as_longlong(mean);
}
