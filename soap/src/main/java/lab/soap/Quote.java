package lab.soap;

import lab.common.Echoes;
import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/** getQuote's answer: StockQuote's fields, fixed but for the symbol (lab.common.Echoes). */
public class Quote {
    private static final String[] PRICES = {"last", "open", "high", "low", "prevClose", "change",
        "percentageChange", "marketCap", "peRatio", "earnings"};
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Quote.class, "Quote", fields());
    private final String symbol;

    Quote(String symbol) {
        this.symbol = symbol;
    }

    /** Axis's bean rules want one. */
    public Quote() {
        this(null);
    }

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
    public String getName() { return Echoes.QUOTE_NAME; }
    public String getLastTradeTimestamp() { return Echoes.QUOTE_TIMESTAMP; }
    public double getLast() { return Echoes.QUOTE_PRICES[0]; }
    public double getOpen() { return Echoes.QUOTE_PRICES[1]; }
    public double getHigh() { return Echoes.QUOTE_PRICES[2]; }
    public double getLow() { return Echoes.QUOTE_PRICES[3]; }
    public double getPrevClose() { return Echoes.QUOTE_PRICES[4]; }
    public double getChange() { return Echoes.QUOTE_PRICES[5]; }
    public double getPercentageChange() { return Echoes.QUOTE_PRICES[6]; }
    public double getMarketCap() { return Echoes.QUOTE_PRICES[7]; }
    public double getPeRatio() { return Echoes.QUOTE_PRICES[8]; }
    public double getEarnings() { return Echoes.QUOTE_PRICES[9]; }
    public int getVolume() { return Echoes.QUOTE_VOLUME; }
}
