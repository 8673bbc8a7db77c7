package lab.soap;

import java.lang.reflect.Method;
import lab.common.Phases;
import org.apache.axis.MessageContext;
import org.apache.axis.deployment.wsdd.WSDDProvider;
import org.apache.axis.deployment.wsdd.WSDDService;
import org.apache.axis.providers.java.RPCProvider;

/**
 * Axis 1.4's RPC provider with the business logic's bounds marked for lab.common.Phases: Axis calls
 * {@link #invokeMethod} once the arguments are un-marshalled, and marshals what it returns. The
 * service is declared with it in server-config.wsdd ({@code provider="java:LabRPC"}, found through
 * META-INF/services/org.apache.axis.deployment.wsdd.Provider).
 */
public class TimedRPCProvider extends RPCProvider {
    private static final long serialVersionUID = 1L;

    @Override
    protected Object invokeMethod(MessageContext context, Method method, Object service, Object[] arguments)
            throws Exception {
        Phases.logicStarts();
        try {
            return super.invokeMethod(context, method, service, arguments);
        } finally {
            Phases.logicEnds();
        }
    }

    /** The provider's name in WSDD, {@code java:LabRPC}. */
    public static class Declared extends WSDDProvider {
        @Override
        public String getName() {
            return "LabRPC";
        }

        @Override
        public org.apache.axis.Handler newProviderInstance(WSDDService service,
                org.apache.axis.EngineConfiguration configuration) {
            return new TimedRPCProvider();
        }
    }
}
