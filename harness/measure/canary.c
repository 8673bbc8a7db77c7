/* The speed canary: a fixed amount of CPU work in the shape of a request rather than a pure
 * arithmetic loop (integer hashing, lookups in a table larger than the near caches, branches the
 * data decides), timed rep by rep. It feels what slows the servers' CPUs without showing in /proc:
 * other tenants sharing the caches, the memory bandwidth or a sibling hyperthread, a CPU quota.
 *
 * Usage: canary [reps]   prints each rep's wall time in microseconds on one line, then its own CPU
 *                        time (CLOCK_PROCESS_CPUTIME_ID) on the next.
 * Built by `make build` into target/canary; run by harness/measure/canary.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define TABLE_WORDS (1u << 18) /* 1 MiB: past L1 and most of L2, so the caches' state matters */
#define HUGE_PAGE (2u << 20)
#define STEPS 1000000          /* about 3 ms a rep on this lab's VMs */

/* The table lives in one transparent huge page: physically contiguous, so it maps onto the caches
 * the same way in every run. In 4 KiB pages each run's placement differed, and the runs' times with
 * it: on AMD EPYC a 512 KiB table read 2.5 or 3.0 ms from one run to the next, the 1 MiB one in a
 * huge page 2.84-3.09 ms over 80 runs (10th to 90th percentile). */
static uint32_t *table;

static double now_us(clockid_t clock)
{
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static uint32_t work(uint32_t seed)
{
    uint32_t x = seed, sum = 0;
    for (int step = 0; step < STEPS; step++) {
        x ^= x << 13; /* xorshift: the integer work */
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t *slot = &table[x & (TABLE_WORDS - 1)]; /* a lookup the near caches mostly miss */
        if ((*slot ^ x) & 1) /* a branch no predictor learns */
            sum += *slot >> 3;
        else
            sum ^= x;
        *slot += x;
    }
    return sum;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: canary [reps, 1 to 1000]\n");
        return 2;
    }
    if (posix_memalign((void **)&table, HUGE_PAGE, HUGE_PAGE)) {
        fprintf(stderr, "canary: no memory for its table\n");
        return 2;
    }
    madvise(table, HUGE_PAGE, MADV_HUGEPAGE); /* a hint: where THP is off, 4 KiB pages it is */
    for (uint32_t word = 0; word < TABLE_WORDS; word++)
        table[word] = word * 2654435761u;
    volatile uint32_t sink = work(1); /* the table and the code warmed once, untimed */
    double *cpu_us = calloc((size_t)reps, sizeof *cpu_us);
    if (!cpu_us)
        return 2;
    for (int rep = 0; rep < reps; rep++) {
        double started = now_us(CLOCK_MONOTONIC), cpu_started = now_us(CLOCK_PROCESS_CPUTIME_ID);
        sink += work((uint32_t)rep + 2);
        cpu_us[rep] = now_us(CLOCK_PROCESS_CPUTIME_ID) - cpu_started;
        printf("%s%.0f", rep ? " " : "", now_us(CLOCK_MONOTONIC) - started);
    }
    printf("\n");
    for (int rep = 0; rep < reps; rep++)
        printf("%s%.0f", rep ? " " : "", cpu_us[rep]);
    printf("\n");
    return sink == 0 && reps < 0; /* the work is used, so no compiler drops it */
}
