package lab.cxf;

import lab.common.Phases;
import org.apache.cxf.interceptor.OutgoingChainInterceptor;
import org.apache.cxf.message.Message;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;

/**
 * The business logic's bounds for lab.common.Phases, as CXF's own interceptors: its start in the phase
 * before the invoker's (the arguments un-marshalled in UNMARSHAL), its end first in the phase after
 * it, before the interceptor that runs the reply's chain (marshalling and writing) in that phase.
 * Added to the endpoint only when phases are recorded.
 */
public final class LogicClock extends AbstractPhaseInterceptor<Message> {
    private final boolean start;

    private LogicClock(String phase, boolean start) {
        super(phase);
        this.start = start;
    }

    static LogicClock starts() {
        return new LogicClock(Phase.PRE_INVOKE, true);
    }

    static LogicClock ends() {
        LogicClock ends = new LogicClock(Phase.POST_INVOKE, false);
        ends.addBefore(OutgoingChainInterceptor.class.getName());
        return ends;
    }

    @Override
    public void handleMessage(Message message) {
        if (start) {
            Phases.logicStarts();
        } else {
            Phases.logicEnds();
        }
    }
}
