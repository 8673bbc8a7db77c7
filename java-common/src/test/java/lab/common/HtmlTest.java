package lab.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Escaping as PHP's htmlspecialchars(ENT_QUOTES | ENT_HTML401) does it, so the apps' pages match. */
class HtmlTest {
    @Test
    void theFiveSpecialCharactersAreEscaped() {
        assertEquals("&amp;&lt;&gt;&quot;&#039;", Html.escape("&<>\"'"));
    }

    @Test
    void namesKeepEverythingElse() {
        assertEquals("O&#039;Berry", Html.escape("O'Berry"));
        assertEquals("Núñez Ölund 李", Html.escape("Núñez Ölund 李"));
        assertEquals("", Html.escape(""));
    }

    @Test
    void anEscapedValueIsEscapedAgainNotLeftAsIs() {
        assertEquals("&amp;amp;", Html.escape("&amp;"));
    }

    @Test
    void errorPagesNameTheirStatus() {
        assertEquals("Bad Request", Html.reason(400));
        assertEquals("Not Found", Html.reason(404));
        assertEquals("Method Not Allowed", Html.reason(405));
        assertEquals("Service Unavailable", Html.reason(503));
    }
}
