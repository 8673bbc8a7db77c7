package lab.soap;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import org.apache.axis.description.JavaServiceDesc;

/**
 * Works around an Axis 1.4 race on Java 8+: every request's JavaServiceDesc.getOperationsByQName
 * sorts a list of operations shared by all requests, and two concurrent ArrayList.sort calls throw
 * ConcurrentModificationException (as seen by dCache, PR 1401). Measured here with wrk at 16
 * connections, 0.5-6 % of valid calls failed with it. Axis 1.4 is frozen, so its two operation maps
 * are patched once: each list becomes one whose sort is synchronized.
 */
final class OperationListsFix {
    private OperationListsFix() {
    }

    static void apply(JavaServiceDesc description) throws ReflectiveOperationException {
        description.getOperationsByQName(new javax.xml.namespace.QName("")); // builds both maps
        for (String name : new String[] {"qname2OperationsMap", "name2OperationsMap"}) {
            Field field = JavaServiceDesc.class.getDeclaredField(name);
            field.setAccessible(true);
            @SuppressWarnings("unchecked")
            Map<Object, Object> operations = (Map<Object, Object>) field.get(description);
            if (operations == null) {
                throw new IllegalStateException("Axis did not build " + name);
            }
            for (Map.Entry<Object, Object> entry : operations.entrySet()) {
                entry.setValue(new SortSynchronizedList((Collection<?>) entry.getValue()));
            }
        }
    }

    /** An ArrayList that Collections.sort may be called on from many threads at once. */
    private static final class SortSynchronizedList extends ArrayList<Object> {
        private static final long serialVersionUID = 1L;

        SortSynchronizedList(Collection<?> operations) {
            super(operations);
        }

        @Override
        public synchronized void sort(Comparator<? super Object> order) {
            super.sort(order);
        }

        @Override
        public synchronized Object[] toArray() {
            return super.toArray();
        }

        @Override
        public synchronized <T> T[] toArray(T[] target) {
            return super.toArray(target);
        }
    }
}
