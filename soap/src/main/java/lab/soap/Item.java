package lab.soap;

import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/** WSTest's struct, which echoStructs returns as it came: an int, a float and a string. */
public class Item {
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Item.class, "Item", new Object[][] {
        {"varInt", Constants.XSD_INT}, {"varFloat", Constants.XSD_FLOAT}, {"varString", Constants.XSD_STRING}});
    private int varInt;
    private float varFloat;
    private String varString;

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    public int getVarInt() { return varInt; }
    public void setVarInt(int varInt) { this.varInt = varInt; }
    public float getVarFloat() { return varFloat; }
    public void setVarFloat(float varFloat) { this.varFloat = varFloat; }
    public String getVarString() { return varString; }
    public void setVarString(String varString) { this.varString = varString; }
}
