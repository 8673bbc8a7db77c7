package lab.pooled;

import com.zaxxer.hikari.HikariPoolMXBean;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Whether requests queue for the pool: samples it every 50 ms and appends, for every second in which
 * it was in use, the most request threads that waited for a connection and the most connections in
 * use ("epoch-second TAB waiting TAB active"). The sweep reads it per step, to tell a pool that is
 * too small from a CPU that is too slow. Idle seconds write nothing.
 */
final class PoolWaitLog implements Runnable {
    private static final int SAMPLES_PER_SECOND = 20;
    private final HikariPoolMXBean pool;
    private final Path file;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "pool-wait-log");
        thread.setDaemon(true);
        return thread;
    });
    private long second = -1;
    private int mostWaiting;
    private int mostActive;

    PoolWaitLog(HikariPoolMXBean pool, Path file) {
        this.pool = pool;
        this.file = file;
    }

    void start() {
        sampler.scheduleAtFixedRate(this, 0, 1000 / SAMPLES_PER_SECOND, TimeUnit.MILLISECONDS);
    }

    void stop() {
        sampler.shutdownNow();
    }

    @Override
    public void run() {
        long now = System.currentTimeMillis() / 1000;
        if (now != second) {
            flush();
            second = now;
            mostWaiting = 0;
            mostActive = 0;
        }
        mostWaiting = Math.max(mostWaiting, pool.getThreadsAwaitingConnection());
        mostActive = Math.max(mostActive, pool.getActiveConnections());
    }

    private void flush() {
        if (second < 0 || mostWaiting + mostActive == 0) {
            return;
        }
        String line = second + "\t" + mostWaiting + "\t" + mostActive + "\n";
        try {
            Files.write(file, line.getBytes(StandardCharsets.US_ASCII), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        } catch (IOException e) {
            // The log is a diagnosis aid: losing a line must never cost a request.
        }
    }
}
