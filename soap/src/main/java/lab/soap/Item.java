package lab.soap;

import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/**
 * WSTest's struct, which echoStructs returns as it came: an int, a float and a string. The numbers
 * are objects, so that a field the request left out reads as null, not as 0 (the echo then refuses it).
 */
public class Item {
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Item.class, "Item", new Object[][] {
        {"varInt", Constants.XSD_INT}, {"varFloat", Constants.XSD_FLOAT}, {"varString", Constants.XSD_STRING}});
    private Integer varInt;
    private Float varFloat;
    private String varString;

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    /** Whether the request gave every field (Axis fills in what it finds and leaves the rest unset). */
    static boolean isComplete(Integer varInt, Float varFloat, String varString) {
        return varInt != null && varFloat != null && varString != null;
    }

    public Integer getVarInt() { return varInt; }
    public void setVarInt(Integer varInt) { this.varInt = varInt; }
    public Float getVarFloat() { return varFloat; }
    public void setVarFloat(Float varFloat) { this.varFloat = varFloat; }
    public String getVarString() { return varString; }
    public void setVarString(String varString) { this.varString = varString; }
}
