package lab.common;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of the echo operations (contract/README.md, "Echo operations") at their edges. */
class EchoesTest {
    private static void refused(String message, org.junit.jupiter.api.function.Executable call) {
        InvalidRequest refusal = assertThrows(InvalidRequest.class, call);
        assertEquals(400, refusal.status());
        assertEquals(message, refusal.getMessage());
    }

    @Test
    void anEchoTakesOneToSixteenThousandItems() {
        assertDoesNotThrow(() -> Echoes.checkItems(1));
        assertDoesNotThrow(() -> Echoes.checkItems(16000));
        refused("echo takes 1 to 16000 items", () -> Echoes.checkItems(0));
        refused("echo takes 1 to 16000 items", () -> Echoes.checkItems(16001));
    }

    @Test
    void aListHasOneToSixtyFourNodes() {
        assertDoesNotThrow(() -> Echoes.checkListNodes(64));
        refused("list must have 1 to 64 nodes", () -> Echoes.checkListNodes(0));
        refused("list must have 1 to 64 nodes", () -> Echoes.checkListNodes(65));
    }

    @Test
    void onlyFiniteNumbersAreEchoed() {
        assertDoesNotThrow(() -> Echoes.checkFinite(-Double.MAX_VALUE));
        assertDoesNotThrow(() -> Echoes.checkFinite(Double.MIN_VALUE));
        for (double number : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Float.NaN}) {
            refused("numbers must be finite", () -> Echoes.checkFinite(number));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ibm", "IBM1", "ABCDEFGHI", " IBM", "ÉTÉ"})
    void aSymbolIsOneToEightCapitalLetters(String symbol) {
        assertDoesNotThrow(() -> Echoes.checkSymbol("IBM"));
        assertDoesNotThrow(() -> Echoes.checkSymbol("ABCDEFGH"));
        refused("symbol must be 1 to 8 capital letters", () -> Echoes.checkSymbol(symbol));
        refused("symbol must be 1 to 8 capital letters", () -> Echoes.checkSymbol(null));
    }
}
