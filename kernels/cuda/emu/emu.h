// Runs mteval's CUDA C kernels on the CPU for tests on machines without a
// GPU: the CUDA keywords become plain C++, and a "launch" calls the kernel
// once per (block, thread), one after another. This is faithful because the
// kernels use no shared memory, barriers or warp intrinsics (common.cuh).
#pragma once
#include <cstdint>

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define MTEVAL_UNROLL

struct EmuDim3 {
    unsigned int x, y, z;
};
static EmuDim3 blockIdx, threadIdx, blockDim, gridDim;

static inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
    unsigned long long old = *p;
    *p = old + v;
    return old;
}

template <typename F>
static void emu_launch(unsigned long long threads, unsigned int block, F kernel) {
    unsigned long long blocks = (threads + block - 1) / block;
    blockDim = {block, 1, 1};
    gridDim = {(unsigned int)blocks, 1, 1};
    for (unsigned long long b = 0; b < blocks; ++b) {
        blockIdx = {(unsigned int)b, 0, 0};
        for (unsigned int t = 0; t < block; ++t) {
            threadIdx = {t, 0, 0};
            kernel();
        }
    }
}
