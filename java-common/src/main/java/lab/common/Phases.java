package lab.common;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * A SOAP request's phases as the Infosys paper timed them: un-marshalling, from the engine's servlet
 * receiving the request to the business logic starting; the business logic; marshalling, from the
 * logic's end to the reply sent. {@link PhaseTiming}, the filter right in front of each engine's
 * servlet, starts a request's clock and records it; each engine marks its business logic's start and
 * end through a hook of its own (Axis 1.4's provider, CXF's interceptors, Axis2's service object
 * supplier).
 *
 * <p>Off unless the JVM is given {@code -Dlab.soapPhases=FILE} (the lab's knob SOAP_PHASES): then a
 * request that reached its logic appends "web application, un-marshal, logic, marshal" in microseconds,
 * then the bytes the request's thread allocated in each of the three phases, tab-separated, to FILE.
 * Off, every mark is one test of a constant.
 */
public final class Phases {
    private static final Logger LOG = Logger.getLogger(Phases.class.getName());
    private static final String FILE = System.getProperty("lab.soapPhases", "");
    /** Whether phases are recorded: fixed when the JVM starts. */
    public static final boolean ON = !FILE.isEmpty();
    private static final int RECEIVED = 0;
    private static final int LOGIC_STARTS = 1;
    private static final int LOGIC_ENDS = 2;
    /** Where a mark's allocated bytes sit in the clock, after its three times. */
    private static final int BYTES = 3;
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final ThreadLocal<long[]> CLOCK = new ThreadLocal<>();

    private Phases() {
    }

    static void received() {
        CLOCK.set(new long[] {System.nanoTime(), 0, 0, allocated(), 0, 0});
    }

    /** The bytes this thread has allocated since it started (HotSpot counts them per thread). */
    private static long allocated() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** The business logic starts (its arguments un-marshalled). */
    public static void logicStarts() {
        mark(LOGIC_STARTS);
    }

    /** The business logic has its answer (not yet marshalled). */
    public static void logicEnds() {
        mark(LOGIC_ENDS);
    }

    private static void mark(int at) {
        long[] clock = ON ? CLOCK.get() : null;
        if (clock != null) {
            clock[at] = System.nanoTime();
            clock[BYTES + at] = allocated();
        }
    }

    /** The reply is sent: the request's phases are recorded, when its logic ran. */
    static void sent(String webApplication) {
        long[] clock = CLOCK.get();
        long now = System.nanoTime();
        long bytes = allocated();
        if (clock == null || clock[LOGIC_STARTS] == 0 || clock[LOGIC_ENDS] == 0) {
            return; // refused before its logic (a fault, a WSDL): no phases to tell
        }
        record(String.format(Locale.ROOT, "%s\t%.1f\t%.1f\t%.1f\t%d\t%d\t%d%n", webApplication,
            (clock[LOGIC_STARTS] - clock[RECEIVED]) / 1e3, (clock[LOGIC_ENDS] - clock[LOGIC_STARTS]) / 1e3,
            (now - clock[LOGIC_ENDS]) / 1e3, clock[BYTES + LOGIC_STARTS] - clock[BYTES + RECEIVED],
            clock[BYTES + LOGIC_ENDS] - clock[BYTES + LOGIC_STARTS], bytes - clock[BYTES + LOGIC_ENDS]));
    }

    static void forget() {
        CLOCK.remove();
    }

    private static synchronized void record(String line) {
        try (Writer out = Files.newBufferedWriter(Paths.get(FILE), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.write(line);
        } catch (IOException e) {
            LOG.warning("cannot record SOAP phases in " + FILE + ": " + e.getMessage());
        }
    }
}
