/* How much lane time the detached nqueens(16) at cutoff 8 loses to uneven leaves in a
 * round: every leaf task (row 8) is searched sequentially, its cost counted as the loop
 * iterations of examples/src/nqueens.rs `count_seq` (one per placement tried, one per row
 * finished); leaves are grouped 32 at a time (one warp round), in the order a depth-first
 * spawn makes them and in a random order, and the lane time a round takes (its longest
 * leaf, times 32) is set against the work (the sum of its leaves).
 * Build and run: gcc -O2 nqueens-leaf-balance.c -o nqb && ./nqb   (about 20 s) */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
static const int N = 16, CUT = 8;
static long long iters;
static void search(int row, uint32_t c, uint32_t l, uint32_t r) {
    uint32_t f = ((1u << N) - 1) & ~(c | l | r);
    while (f) {
        uint32_t b = f & -f;
        f ^= b;
        iters++;
        if (row + 1 < N) search(row + 1, c | b, (l | b) << 1, (r | b) >> 1);
    }
    iters++;
}
static long long *sizes, count;
static void tasks(int row, uint32_t c, uint32_t l, uint32_t r) {
    if (row >= CUT) { iters = 0; search(row, c, l, r); sizes[count++] = iters; return; }
    uint32_t f = ((1u << N) - 1) & ~(c | l | r);
    while (f) { uint32_t b = f & -f; f ^= b; tasks(row + 1, c | b, (l | b) << 1, (r | b) >> 1); }
}
static double waste(long long *total) {
    long long sum = 0, lane_time = 0;
    for (long long i = 0; i < count; i += 32) {
        long long longest = 0;
        for (long long j = i; j < i + 32 && j < count; j++) {
            sum += sizes[j];
            if (sizes[j] > longest) longest = sizes[j];
        }
        lane_time += longest * 32;
    }
    *total = sum;
    return (double)lane_time / sum;
}
static int by_size(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}
int main(void) {
    long long sum;
    sizes = malloc(sizeof(long long) * 20000000);
    tasks(0, 0, 0, 0);
    printf("leaves %lld, iterations %lld\n", count, (waste(&sum), sum));
    printf("depth-first rounds: lane time / work = %.3f\n", waste(&sum));
    srand(1);
    for (long long i = count - 1; i > 0; i--) {
        long long j = ((long long)rand() * RAND_MAX + rand()) % (i + 1), x = sizes[i];
        sizes[i] = sizes[j];
        sizes[j] = x;
    }
    printf("random rounds: lane time / work = %.3f\n", waste(&sum));
    qsort(sizes, count, sizeof(long long), by_size);
    printf("leaf iterations: median %lld, p90 %lld, p99 %lld, max %lld, mean %.1f\n",
           sizes[count / 2], sizes[count * 9 / 10], sizes[count * 99 / 100], sizes[count - 1],
           (double)sum / count);
    return 0;
}
