package lab.axis2;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import lab.axis2.wire.PlayerServiceSkeletonInterface;
import lab.common.Phases;
import org.apache.axis2.ServiceObjectSupplier;
import org.apache.axis2.description.AxisService;

/**
 * Axis2's hook for the service object (services.xml's ServiceObjectSupplier): the implementation,
 * and, when lab.common.Phases records, the implementation behind a proxy that marks its business
 * logic's bounds. No phase of Axis2's flow sits between un-marshalling and the logic: the message
 * receiver wsdl2code generated reads the ADB objects, calls the skeleton and writes the reply in one
 * method, so the bounds are the skeleton's calls.
 */
public class TimedServiceSupplier implements ServiceObjectSupplier {
    @Override
    public Object getServiceObject(AxisService service) {
        PlayerServiceImpl implementation = new PlayerServiceImpl();
        if (!Phases.ON) {
            return implementation;
        }
        return Proxy.newProxyInstance(PlayerServiceSkeletonInterface.class.getClassLoader(),
            new Class<?>[] {PlayerServiceSkeletonInterface.class}, (proxy, operation, arguments) -> {
                Phases.logicStarts();
                try {
                    return operation.invoke(implementation, arguments);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                } finally {
                    Phases.logicEnds();
                }
            });
    }
}
