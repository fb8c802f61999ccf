// Shared definitions of mteval's CUDA C kernels. NVRTC compiles each kernel
// file with this header prepended (no #include: the kernels are
// self-contained, so no CUDA toolkit headers are needed at run time).
//
// Every kernel runs one independent thread per work item (a pair, a
// string and order, a window) with no shared memory, no barriers and no
// warp intrinsics, except the warp kernels, whose lanes meet only in
// __syncwarp and __shfl_up_sync over the whole warp: lev_warp (one warp per
// pair, carries passed by shuffles) and ter_search (one warp per segment,
// the lanes passing a round's candidates and best shifts through the warp's
// own global memory between __syncwarp barriers). Threads and warps write
// disjoint outputs (or add with atomicAdd). That makes the kernels
// deterministic, and lets the test harness in kernels/cuda/emu run the very
// same source on the CPU against the CPU backend: one thread after
// another, or a warp's 32 lanes taking turns between its meeting points.

typedef unsigned int u32;
typedef unsigned long long u64;

// Global index of the calling thread.
__device__ __forceinline__ u64 mteval_thread_index() {
    return (u64)blockIdx.x * (u64)blockDim.x + (u64)threadIdx.x;
}

// Asks the compiler to unroll the loop that follows (so that a small array
// indexed by the loop counter lives in registers). The CPU harness
// (emu/emu.h) defines it first, as nothing.
#ifndef MTEVAL_UNROLL
#define MTEVAL_UNROLL _Pragma("unroll")
#endif
