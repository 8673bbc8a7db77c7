package lab.soap;

import javax.xml.namespace.QName;
import lab.common.Contract;
import org.apache.axis.Constants;
import org.apache.axis.description.ElementDesc;
import org.apache.axis.description.TypeDesc;

/** WSTest's linked list, which echoList returns as it came: an Item's fields and the next node. */
public class ListNode {
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(ListNode.class, "ListNode", new Object[][] {
        {"varInt", Constants.XSD_INT}, {"varFloat", Constants.XSD_FLOAT}, {"varString", Constants.XSD_STRING},
        {"next", new QName(Contract.NAMESPACE, "ListNode")}});

    static {
        ((ElementDesc) TYPE_DESC.getFieldByName("next")).setMinOccurs(0); // the last node has none
    }

    private Integer varInt;
    private Float varFloat;
    private String varString;
    private ListNode next;

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    public Integer getVarInt() { return varInt; }
    public void setVarInt(Integer varInt) { this.varInt = varInt; }
    public Float getVarFloat() { return varFloat; }
    public void setVarFloat(Float varFloat) { this.varFloat = varFloat; }
    public String getVarString() { return varString; }
    public void setVarString(String varString) { this.varString = varString; }
    public ListNode getNext() { return next; }
    public void setNext(ListNode next) { this.next = next; }
}
