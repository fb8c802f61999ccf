// Runs mteval's CUDA C kernels on the CPU for tests on machines without a
// GPU: the CUDA keywords become plain C++, and a "launch" calls the kernel
// once per (block, thread), one after another. This is faithful for the
// kernels that use no shared memory, barriers or warp intrinsics
// (common.cuh). The warp kernels (lev_warp) run with emu_launch_warps
// instead: the 32 lanes of a warp as 32 threads of the host, meeting at a
// barrier in every shuffle and __syncwarp, as the lanes of a warp do.
#pragma once
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define MTEVAL_UNROLL

struct EmuDim3 {
    unsigned int x, y, z;
};
static thread_local EmuDim3 blockIdx, threadIdx;
static EmuDim3 blockDim, gridDim;

// The warp the calling host thread plays a lane of (emu_launch_warps).
struct EmuWarp {
    std::barrier<> meet{32};
    unsigned int vals[32];
};
static thread_local EmuWarp* emu_warp = nullptr;

static inline unsigned int __shfl_up_sync(unsigned int, unsigned int v, unsigned int delta) {
    unsigned int lane = threadIdx.x % 32;
    emu_warp->vals[lane] = v;
    emu_warp->meet.arrive_and_wait();
    unsigned int r = lane >= delta ? emu_warp->vals[lane - delta] : v;
    emu_warp->meet.arrive_and_wait();
    return r;
}

static inline void __syncwarp(unsigned int) { emu_warp->meet.arrive_and_wait(); }

static inline long long __double_as_longlong(double x) {
    long long r;
    std::memcpy(&r, &x, sizeof r);
    return r;
}

static inline double __longlong_as_double(long long x) {
    double r;
    std::memcpy(&r, &x, sizeof r);
    return r;
}

static inline int __clz(unsigned int x) { return x == 0 ? 32 : __builtin_clz(x); }

static inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
    unsigned long long old = *p;
    *p = old + v;
    return old;
}

// Sets the launch's block and grid sizes; the number of blocks.
static unsigned long long emu_grid(unsigned long long threads, unsigned int block) {
    unsigned long long blocks = (threads + block - 1) / block;
    blockDim = {block, 1, 1};
    gridDim = {(unsigned int)blocks, 1, 1};
    return blocks;
}

template <typename F>
static void emu_launch(unsigned long long threads, unsigned int block, F kernel) {
    unsigned long long blocks = emu_grid(threads, block);
    for (unsigned long long b = 0; b < blocks; ++b) {
        blockIdx = {(unsigned int)b, 0, 0};
        for (unsigned int t = 0; t < block; ++t) {
            threadIdx = {t, 0, 0};
            kernel();
        }
    }
}

// A launch of a warp kernel: each warp's 32 lanes run at once as host
// threads (the kernel must reach its shuffles with the whole warp, or leave
// with the whole warp, as on a GPU).
template <typename F>
static void emu_launch_warps(unsigned long long threads, unsigned int block, F kernel) {
    unsigned long long blocks = emu_grid(threads, block);
    for (unsigned long long b = 0; b < blocks; ++b) {
        for (unsigned int w0 = 0; w0 < block; w0 += 32) {
            EmuWarp warp;
            std::vector<std::thread> lanes;
            for (unsigned int l = 0; l < 32; ++l) {
                lanes.emplace_back([&, l] {
                    blockIdx = {(unsigned int)b, 0, 0};
                    threadIdx = {w0 + l, 0, 0};
                    emu_warp = &warp;
                    kernel();
                });
            }
            for (auto& t : lanes) t.join();
        }
    }
}
