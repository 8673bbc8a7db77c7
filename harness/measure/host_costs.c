/* Three of the host's prices that `perf bench` does not measure (harness/measure/prices.py reads the
 * others there): a minor page fault, and a loopback TCP connection opened, accepted and closed, which
 * a connection-per-request server pays on every request and a pooled one does not, and a nested guest
 * may charge more for than bare metal; and a block written and synced to a disk, which an InnoDB
 * commit waits for (its redo log's write and fsync).
 *
 * Usage: host-costs fault PAGES   anonymous pages mapped, each touched once (one minor fault each),
 *                                 unmapped; prints the nanoseconds a fault took, map and unmap included
 *        host-costs tcp COUNT     COUNT connections to a listener on 127.0.0.1 (an ephemeral port),
 *                                 each connected, accepted and closed, the accepted end first (its
 *                                 TIME_WAIT holds no client port); prints the microseconds one took
 *        host-costs fsync COUNT DIR  one 4 KiB block of a new file in DIR written over in place and
 *                                 fdatasync'ed COUNT times (as InnoDB overwrites its redo log), after
 *                                 one unmeasured; prints the microseconds one took; the file is removed
 * Built by `make build` into target/host-costs. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e9 + now.tv_nsec;
}

static int faults(long pages)
{
    long page = sysconf(_SC_PAGESIZE);
    double started = now_ns();
    char *area = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED) {
        perror("host-costs: mmap");
        return 1;
    }
    madvise(area, (size_t)(pages * page), MADV_NOHUGEPAGE); /* one fault per 4 KiB page, not per 2 MiB */
    for (long index = 0; index < pages; index++)
        area[index * page] = (char)index;
    munmap(area, (size_t)(pages * page));
    printf("%.1f\n", (now_ns() - started) / pages);
    return 0;
}

static int connections(long count)
{
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, length) ||
        getsockname(listener, (struct sockaddr *)&address, &length) || listen(listener, 64)) {
        perror("host-costs: listen");
        return 1;
    }
    double started = now_ns();
    for (long index = 0; index < count; index++) {
        int client = socket(AF_INET, SOCK_STREAM, 0);
        if (client < 0 || connect(client, (struct sockaddr *)&address, sizeof address)) {
            perror("host-costs: connect");
            return 1;
        }
        int accepted = accept(listener, NULL, NULL);
        if (accepted < 0) {
            perror("host-costs: accept");
            return 1;
        }
        close(accepted);
        close(client);
    }
    printf("%.2f\n", (now_ns() - started) / count / 1e3);
    close(listener);
    return 0;
}

static int write_synced(int file, const char *block, size_t size)
{
    return pwrite(file, block, size, 0) == (ssize_t)size && !fdatasync(file) ? 0 : -1;
}

static int syncs(long count, const char *directory)
{
    char path[4096], block[4096];
    if (snprintf(path, sizeof path, "%s/host-costs-fsync.XXXXXX", directory) >= (int)sizeof path) {
        fprintf(stderr, "host-costs: the directory's name is too long\n");
        return 1;
    }
    int file = mkstemp(path);
    if (file < 0) {
        perror("host-costs: mkstemp");
        return 1;
    }
    memset(block, 'x', sizeof block);
    int failed = write_synced(file, block, sizeof block); /* the block allocated, outside the time */
    double started = now_ns();
    for (long index = 0; index < count && !failed; index++)
        failed = write_synced(file, block, sizeof block);
    if (failed)
        perror("host-costs: write or fdatasync");
    else
        printf("%.1f\n", (now_ns() - started) / count / 1e3);
    close(file);
    unlink(path);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    long count = argc > 2 ? atol(argv[2]) : 0;
    if (argc == 3 && count > 0 && count <= 1000000) {
        if (!strcmp(argv[1], "fault"))
            return faults(count);
        if (!strcmp(argv[1], "tcp"))
            return connections(count);
    }
    if (argc == 4 && count > 0 && count <= 1000000 && !strcmp(argv[1], "fsync"))
        return syncs(count, argv[3]);
    fprintf(stderr, "usage: host-costs fault PAGES | tcp COUNT | fsync COUNT DIR (1 to 1000000)\n");
    return 2;
}
