package lab.soap;

import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/** getQuote's answer: StockQuote's fields, filled by lab.common.Echoes (fixed but for the symbol). */
public class Quote {
    private static final String[] PRICES = {"last", "open", "high", "low", "prevClose", "change",
        "percentageChange", "marketCap", "peRatio", "earnings"};
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Quote.class, "Quote", fields());
    private String symbol;
    private String name;
    private String lastTradeTimestamp;
    private double last;
    private double open;
    private double high;
    private double low;
    private double prevClose;
    private double change;
    private double percentageChange;
    private double marketCap;
    private double peRatio;
    private double earnings;
    private int volume;

    private static Object[][] fields() {
        Object[][] fields = new Object[PRICES.length + 4][];
        fields[0] = new Object[] {"symbol", Constants.XSD_STRING};
        fields[1] = new Object[] {"name", Constants.XSD_STRING};
        fields[2] = new Object[] {"lastTradeTimestamp", Constants.XSD_STRING};
        for (int i = 0; i < PRICES.length; i++) {
            fields[i + 3] = new Object[] {PRICES[i], Constants.XSD_DOUBLE};
        }
        fields[fields.length - 1] = new Object[] {"volume", Constants.XSD_INT};
        return fields;
    }

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    public String getSymbol() { return symbol; }
    public void setSymbol(String symbol) { this.symbol = symbol; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getLastTradeTimestamp() { return lastTradeTimestamp; }
    public void setLastTradeTimestamp(String lastTradeTimestamp) { this.lastTradeTimestamp = lastTradeTimestamp; }
    public double getLast() { return last; }
    public void setLast(double last) { this.last = last; }
    public double getOpen() { return open; }
    public void setOpen(double open) { this.open = open; }
    public double getHigh() { return high; }
    public void setHigh(double high) { this.high = high; }
    public double getLow() { return low; }
    public void setLow(double low) { this.low = low; }
    public double getPrevClose() { return prevClose; }
    public void setPrevClose(double prevClose) { this.prevClose = prevClose; }
    public double getChange() { return change; }
    public void setChange(double change) { this.change = change; }
    public double getPercentageChange() { return percentageChange; }
    public void setPercentageChange(double percentageChange) { this.percentageChange = percentageChange; }
    public double getMarketCap() { return marketCap; }
    public void setMarketCap(double marketCap) { this.marketCap = marketCap; }
    public double getPeRatio() { return peRatio; }
    public void setPeRatio(double peRatio) { this.peRatio = peRatio; }
    public double getEarnings() { return earnings; }
    public void setEarnings(double earnings) { this.earnings = earnings; }
    public int getVolume() { return volume; }
    public void setVolume(int volume) { this.volume = volume; }
}
