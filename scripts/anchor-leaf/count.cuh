// gtap's sequential N-Queens count for the GPU (`count_in_registers` in
// examples/src/nqueens.rs), written in CUDA, and a `serial_search` that calls it: what
// scripts/anchor-leaf.sh puts in place of the leaf of GTaP's nq, so that GTaP's runtime can be
// measured with the same leaf as gtap's nqueens (one atomic add per leaf, as gtap's detached
// program does). Boards of up to 16 columns.
#pragma once
#include <stdint.h>

// Solutions below a board state: the search path in registers, 4 bits a row; each step
// works out both moves (a row down, a row back up) and selects one. See the Rust original
// for why undoing a row is exact.
__device__ __forceinline__ unsigned long long gtap_count_in_registers(uint32_t n, uint32_t row,
                                                                      uint32_t c, uint32_t l,
                                                                      uint32_t r) {
    if (row >= n) return 1;
    const uint32_t full = (1u << n) - 1;
    const uint32_t last = n - row - 1;
    uint32_t free_cols = full & ~(c | l | r);
    unsigned long long path = 0, total = 0;
    uint32_t lost = 0, depth = 0;
    for (;;) {
        const bool placed = free_cols != 0;
        if (!placed && depth == 0) return total;
        const uint32_t bit = free_cols & (0u - free_cols);
        const bool at_last = depth == last;
        const bool down = placed && !at_last;
        total += (placed && at_last) ? 1 : 0;
        const uint32_t up = 1u << (uint32_t)(path & 0xF);
        const uint32_t dc = c | bit, dl = (l | bit) << 1, dr = (r | bit) >> 1;
        const uint32_t uc = c ^ up, ul = (l >> 1) ^ up, ur = ((r << 1) | (lost & 1)) ^ up;
        const uint32_t dlost = (lost << 1) | ((r | bit) & 1);
        const unsigned long long dpath = (path << 4) | (unsigned long long)(__ffs(bit) - 1);
        const uint32_t dfree = full & ~(dc | dl | dr);
        const uint32_t ufree = full & ~(uc | ul | ur) & ~(up | (up - 1));
        c = down ? dc : placed ? c : uc;
        l = down ? dl : placed ? l : ul;
        r = down ? dr : placed ? r : ur;
        lost = down ? dlost : placed ? lost : lost >> 1;
        path = down ? dpath : placed ? path : path >> 4;
        free_cols = down ? dfree : placed ? (free_cols ^ bit) : ufree;
        depth = down ? depth + 1 : placed ? depth : depth - 1;
    }
}

// The leaf of GTaP's nq with gtap's count: the solutions below the state, added at once.
__device__ void serial_search(int row, uint32_t column, uint32_t left, uint32_t down, uint32_t right) {
    (void)down;
    if (d_grid_size > 16) __trap();
    unsigned long long found =
        gtap_count_in_registers((uint32_t)d_grid_size, (uint32_t)row, column, left, right);
    if (found != 0) atomicAdd(&d_answer, (int)found);
}
