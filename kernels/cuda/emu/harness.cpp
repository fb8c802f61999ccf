// Test harness: reads kernel launches from stdin and answers with the
// array arguments after the launch (see kernels/src/backend/emulate.rs for
// the wire format). Built with g++ by the kernels' tests.
#include "emu.h"
#include "../common.cuh"
#include "../levenshtein.cu"
#include "../ter.cu"
#include "../chrf.cu"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct Arg {
    unsigned char tag;  // 0 u32 scalar, 2 u32 array, 3 u64 array
    unsigned long long scalar = 0;
    std::vector<u32> a32;
    std::vector<u64> a64;
};

static bool read_exact(void* p, size_t n) { return fread(p, 1, n, stdin) == n; }
static void write_exact(const void* p, size_t n) { fwrite(p, 1, n, stdout); }

int main() {
    for (;;) {
        u32 name_len;
        if (!read_exact(&name_len, 4)) return 0;
        std::string name(name_len, '\0');
        if (!read_exact(&name[0], name_len)) return 1;
        unsigned long long threads;
        u32 block, n_args;
        if (!read_exact(&threads, 8) || !read_exact(&block, 4) || !read_exact(&n_args, 4)) return 1;
        std::vector<Arg> args(n_args);
        for (auto& a : args) {
            if (!read_exact(&a.tag, 1)) return 1;
            if (a.tag == 0) {
                u32 v;
                if (!read_exact(&v, 4)) return 1;
                a.scalar = v;
            } else {
                unsigned long long len;
                if (!read_exact(&len, 8)) return 1;
                if (a.tag == 2) {
                    a.a32.resize(len);
                    if (len && !read_exact(a.a32.data(), len * 4)) return 1;
                } else {
                    a.a64.resize(len);
                    if (len && !read_exact(a.a64.data(), len * 8)) return 1;
                }
            }
        }
        auto P32 = [&](int i) { return args[i].a32.data(); };
        auto P64 = [&](int i) { return args[i].a64.data(); };
        auto S32 = [&](int i) { return (u32)args[i].scalar; };
        if (name == "lev_myers") {
            emu_launch(threads, block, [&] { lev_myers(P32(0), P64(1), P32(2), P64(3), P32(4), P64(5), P64(6), P32(7), S32(8)); });
        } else if (name == "lev_warp") {
            emu_launch_warps(threads, block, [&] { lev_warp(P32(0), P64(1), P32(2), P64(3), P32(4), P64(5), P64(6), P32(7), S32(8)); });
        } else if (name == "utf8_decode") {
            emu_launch(threads, block, [&] { utf8_decode(P32(0), P64(1), P32(2), P32(3), P64(4), S32(5)); });
        } else if (name == "ter_search") {
            emu_launch_warps(threads, block, [&] {
                ter_search(P32(0), P64(1), P32(2), P64(3), P32(4), P32(5), P64(6), P32(7), P32(8), S32(9), S32(10));
            });
        } else if (name == "chrf_profiles") {
            emu_launch(threads, block, [&] {
                chrf_profiles(P32(0), P64(1), P32(2), P64(3), P64(4), P64(5), P32(6), P64(7), P32(8), S32(9), S32(10), S32(11), S32(12));
            });
        } else if (name == "chrf_windows") {
            emu_launch(threads, block, [&] {
                chrf_windows(P32(0), P64(1), P32(2), P64(3), P64(4), P64(5), P64(6), S32(7), S32(8), S32(9), S32(10));
            });
        } else if (name == "chrf_rank") {
            emu_launch(threads, block, [&] { chrf_rank(P64(0), P64(1), P64(2), P32(3), S32(4), S32(5)); });
        } else if (name == "chrf_compact") {
            emu_launch(threads, block, [&] {
                chrf_compact(P64(0), P64(1), P64(2), P32(3), P64(4), P64(5), P32(6), P32(7), S32(8), S32(9));
            });
        } else if (name == "chrf_match_list") {
            emu_launch(threads, block, [&] {
                chrf_match_list(P64(0), P64(1), P32(2), P64(3), P32(4), P32(5), P32(6), S32(7), S32(8));
            });
        } else if (name == "chrf_match_grid") {
            emu_launch(threads, block, [&] {
                chrf_match_grid(P64(0), P64(1), P32(2), P64(3), P32(4), P32(5), S32(6), S32(7), S32(8), S32(9), S32(10));
            });
        } else if (name == "chrf_aggregate") {
            emu_launch(threads, block, [&] {
                chrf_aggregate(P64(0), P64(1), P32(2), P64(3), P32(4), P32(5), P64(6), P64(7), S32(8), S32(9), S32(10), S32(11), S32(12));
            });
        } else if (name == "chrf_mean_utility") {
            emu_launch(threads, block, [&] {
                chrf_mean_utility(P32(0), P64(1), P32(2), P64(3), P64(4), S32(5), S32(6), S32(7), S32(8), S32(9));
            });
        } else {
            fprintf(stderr, "unknown kernel %s\n", name.c_str());
            return 2;
        }
        for (auto& a : args) {
            if (a.tag == 2) write_exact(a.a32.data(), a.a32.size() * 4);
            if (a.tag == 3) write_exact(a.a64.data(), a.a64.size() * 8);
        }
        fflush(stdout);
    }
}
