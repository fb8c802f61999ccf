// Runs mteval's CUDA C kernels on the CPU for tests on machines without a
// GPU: the CUDA keywords become plain C++, and a "launch" calls the kernel
// once per (block, thread), one after another. This is faithful for the
// kernels that use no shared memory, barriers or warp intrinsics
// (common.cuh). The warp kernels (lev_warp, ter_search) run with
// emu_launch_warps instead: the 32 lanes of a warp as 32 contexts of one host
// thread (ucontext), each running until it reaches the warp's next meeting
// point (a shuffle or __syncwarp), as the lanes of a warp meet there. One
// thread switching contexts costs the same on a loaded 2-core machine as on
// an idle one, where 32 threads meeting at a barrier did not. Each round
// starts at another lane, so the lanes' writes between two meetings land in
// changing orders, as they may on a GPU.
#pragma once
#include <ucontext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
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

// The warp whose lanes the calling host thread runs (emu_launch_warps).
struct EmuWarp {
    static constexpr size_t STACK = 1 << 20;
    ucontext_t host;
    ucontext_t lane[32];
    std::unique_ptr<char[]> stacks{new char[32 * STACK]};
    unsigned int vals[32];
    // The lane running, the lanes at the next meeting point and those that
    // have left the kernel, the rounds so far, the warp's first thread.
    unsigned int current = 0, arrived = 0, left = 0, round = 0, base = 0;
    void (*run)(void*) = nullptr;
    void* kernel = nullptr;
};
static thread_local EmuWarp* emu_warp = nullptr;

[[noreturn]] static void emu_diverged(const char* what) {
    fprintf(stderr, "warp lanes diverged (block %u, thread %u): %s\n", blockIdx.x, threadIdx.x, what);
    std::_Exit(4);
}

// Hands the host thread to lane `to`; returns when a lane hands it back.
static void emu_switch(unsigned int to) {
    EmuWarp* w = emu_warp;
    unsigned int from = w->current;
    if (from == to) return;
    w->current = to;
    threadIdx = {w->base + to, 0, 0};
    swapcontext(&w->lane[from], &w->lane[to]);
}

// A meeting point: the next lane of the round runs; the last to arrive
// starts the next round, at another lane (7 is prime to 32).
static void emu_meet() {
    EmuWarp* w = emu_warp;
    if (w->left) emu_diverged("a lane waits at a shuffle or __syncwarp that another lane has left");
    if (++w->arrived < 32) return emu_switch((w->current + 1) % 32);
    w->arrived = 0;
    ++w->round;
    emu_switch((w->round * 7) % 32);
}

// A lane: the kernel, then the next lane of the round, or the host once all
// 32 have left.
static void emu_lane() {
    EmuWarp* w = emu_warp;
    w->run(w->kernel);
    if (w->arrived) emu_diverged("a lane left the kernel while another waits at a shuffle or __syncwarp");
    if (++w->left == 32) setcontext(&w->host);
    emu_switch((w->current + 1) % 32);
    emu_diverged("a lane that left the kernel was resumed");
}

static inline unsigned int __shfl_up_sync(unsigned int, unsigned int v, unsigned int delta) {
    unsigned int lane = threadIdx.x % 32;
    emu_warp->vals[lane] = v;
    emu_meet();
    unsigned int r = lane >= delta ? emu_warp->vals[lane - delta] : v;
    emu_meet();
    return r;
}

static inline void __syncwarp(unsigned int) { emu_meet(); }

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

// Lane `l` of `warp`, ready to start the kernel on its own stack (a function
// of its own: nothing here changes after getcontext returns).
[[gnu::noinline]] static void emu_make_lane(EmuWarp& warp, unsigned int l) {
    ucontext_t& c = warp.lane[l];
    getcontext(&c);
    c.uc_stack.ss_sp = warp.stacks.get() + l * EmuWarp::STACK;
    c.uc_stack.ss_size = EmuWarp::STACK;
    c.uc_link = nullptr;
    makecontext(&c, emu_lane, 0);
}

// Runs the warp of threads `w0 .. w0 + 31` of the current block, from its
// first lane, until all 32 have left.
static void emu_run_warp(EmuWarp& warp, unsigned int w0) {
    warp.current = warp.arrived = warp.left = warp.round = 0;
    warp.base = w0;
    for (unsigned int l = 0; l < 32; ++l) emu_make_lane(warp, l);
    threadIdx = {w0, 0, 0};
    swapcontext(&warp.host, &warp.lane[0]);
}

// A launch of a warp kernel: each warp's 32 lanes run as contexts of this
// thread until all have left (the kernel must reach its shuffles with the
// whole warp, or leave with the whole warp, as on a GPU).
template <typename F>
static void emu_launch_warps(unsigned long long threads, unsigned int block, F kernel) {
    unsigned long long blocks = emu_grid(threads, block);
    EmuWarp warp;
    warp.run = [](void* k) { (*static_cast<F*>(k))(); };
    warp.kernel = &kernel;
    emu_warp = &warp;
    for (unsigned long long b = 0; b < blocks; ++b) {
        blockIdx = {(unsigned int)b, 0, 0};
        for (unsigned int w0 = 0; w0 < block; w0 += 32) {
            emu_run_warp(warp, w0);
        }
    }
    emu_warp = nullptr;
}
