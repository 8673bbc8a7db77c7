package lab.soap;

import javax.xml.namespace.QName;
import lab.common.Contract;
import org.apache.axis.description.ElementDesc;
import org.apache.axis.description.TypeDesc;

/**
 * Axis's bean metadata for the contract's types: each field an element of urn:lab, in the WSDL's
 * order (Axis would otherwise order them by name), never nil.
 */
final class BeanTypes {
    private BeanTypes() {
    }

    /** The type of `bean` named `type`, whose fields are `fields` as {name, XML type} pairs. */
    static TypeDesc describe(Class<?> bean, String type, Object[][] fields) {
        TypeDesc description = new TypeDesc(bean, true);
        description.setXmlType(new QName(Contract.NAMESPACE, type));
        for (Object[] field : fields) {
            ElementDesc element = new ElementDesc();
            element.setFieldName((String) field[0]);
            element.setXmlName(new QName(Contract.NAMESPACE, (String) field[0]));
            element.setXmlType((QName) field[1]);
            element.setNillable(false);
            description.addFieldDesc(element);
        }
        return description;
    }
}
