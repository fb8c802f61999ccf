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
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// A warp kernel of the harness' own, for its test: unless `stay`, lane 3
// leaves while the others meet at __syncwarp, which the emulator reports
// (a GPU's behaviour there is undefined).
__global__ void emu_diverging_warp(u32 stay) {
    if (threadIdx.x % 32 == 3 && !stay) return;
    __syncwarp(0xFFFFFFFFu);
}

struct Arg {
    unsigned char tag;  // 0 u32 scalar, 2 u32 array, 3 u64 array
    unsigned long long scalar = 0;
    std::vector<u32> a32;
    std::vector<u64> a64;
};

// A kernel parameter from its argument: an array's data, or a scalar.
template <typename T>
static T emu_arg(Arg& a) {
    if constexpr (std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, u32> && std::is_pointer_v<T>) {
        if (a.tag != 2) throw std::runtime_error("a u32 array parameter got another argument");
        return a.a32.data();
    } else if constexpr (std::is_pointer_v<T>) {
        static_assert(std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, u64>);
        if (a.tag != 3) throw std::runtime_error("a u64 array parameter got another argument");
        return a.a64.data();
    } else {
        static_assert(std::is_same_v<T, u32>);
        if (a.tag != 0) throw std::runtime_error("a u32 parameter got another argument");
        return (u32)a.scalar;
    }
}

// Runs `kernel` with `launch` on the launch's arguments, each bound to its
// parameter by position and type (an array or scalar of the wrong kind, or
// the wrong number of arguments, is an error, not a misread buffer).
template <typename Launch, typename... P>
static void emu_run(Launch launch, void (*kernel)(P...), std::vector<Arg>& args, unsigned long long threads, u32 block) {
    if (args.size() != sizeof...(P)) throw std::runtime_error("wrong number of arguments");
    auto params = [&]<size_t... I>(std::index_sequence<I...>) {
        return std::tuple<P...>{emu_arg<P>(args[I])...};  // braces: in order
    }(std::index_sequence_for<P...>{});
    launch(threads, block, [&] { std::apply(kernel, params); });
}

// True (after running it) when the launch names `kernel`.
#define EMU_KERNEL(kernel, launch) \
    (name == #kernel && (emu_run([](auto... a) { launch(a...); }, kernel, args, threads, block), true))

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
        // Each kernel with the launcher its kind needs (warp kernels: their
        // 32 lanes taking turns on this thread).
        bool known;
        try {
            known = EMU_KERNEL(lev_myers, emu_launch) || EMU_KERNEL(lev_warp, emu_launch_warps) ||
                    EMU_KERNEL(utf8_decode, emu_launch) || EMU_KERNEL(ter_search, emu_launch_warps) ||
                    EMU_KERNEL(chrf_windows, emu_launch) || EMU_KERNEL(chrf_rank, emu_launch) ||
                    EMU_KERNEL(chrf_compact, emu_launch) || EMU_KERNEL(chrf_profiles, emu_launch) ||
                    EMU_KERNEL(chrf_match_list, emu_launch) || EMU_KERNEL(chrf_match_grid, emu_launch) ||
                    EMU_KERNEL(chrf_aggregate, emu_launch) || EMU_KERNEL(chrf_mean_utility, emu_launch) ||
                    EMU_KERNEL(emu_diverging_warp, emu_launch_warps);
        } catch (const std::exception& e) {
            fprintf(stderr, "kernel %s: %s\n", name.c_str(), e.what());
            return 3;
        }
        if (!known) {
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
