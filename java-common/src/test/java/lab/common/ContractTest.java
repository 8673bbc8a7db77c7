package lab.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The validation rules of contract/README.md, one by one, at their edges. */
class ContractTest {
    private static void refused(int status, String message, org.junit.jupiter.api.function.Executable call) {
        InvalidRequest refusal = assertThrows(InvalidRequest.class, call);
        assertEquals(status, refusal.status());
        assertEquals(message, refusal.getMessage());
    }

    @Test
    void idsFromOneToTheLargestIntAreAccepted() throws InvalidRequest {
        assertEquals(1, Contract.playerId("1"));
        assertEquals(16000, Contract.playerId("16000"));
        assertEquals(Integer.MAX_VALUE, Contract.playerId("2147483647"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "01", "2147483648", "9999999999", "12345678901", "1.5", "1e3", " 1", "1 ",
        "abc", "", "１"})
    void anythingElseIsNotAnId(String id) {
        refused(400, "id must be an integer from 1 to 2147483647", () -> Contract.playerId(id));
    }

    @Test
    void theUpdateRaisesOnlyTheVersionAndReadsTheRowBackWithIt() throws InvalidRequest {
        assertEquals("UPDATE people_innodb SET ver = ver + 1 WHERE id = ?", Contract.updateSql(Contract.table("innodb")));
        assertEquals("SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, "
            + "throws, ver FROM people_myisam WHERE id = ?", Contract.versionedSingleSql(Contract.table(null)));
        assertEquals(Contract.COLUMNS.length + 1, Contract.VERSIONED_COLUMNS.length);
        refused(400, "id must be an integer from 1 to 2147483647", () -> VersionUpdate.of("0", "innodb"));
        refused(400, "engine must be myisam or innodb", () -> VersionUpdate.of("1", "memory"));
    }

    @Test
    void aMissingIdIsNotAnId() {
        refused(400, "id must be an integer from 1 to 2147483647", () -> Contract.playerId(null));
    }

    @Test
    void rowCountsRunFromOneToTheWholeTable() throws InvalidRequest {
        assertEquals(1, Contract.rowCount("1"));
        assertEquals(16000, Contract.rowCount("16000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "01", "16001", "99999", "100000", "1.5", "1e3", " 1", "abc", ""})
    void anythingElseIsNotARowCount(String count) {
        refused(400, "count must be an integer from 1 to 16000", () -> Contract.rowCount(count));
    }

    @Test
    void aMissingRowCountIsRefused() {
        refused(400, "count must be an integer from 1 to 16000", () -> Contract.rowCount(null));
    }

    @Test
    void updateCountsRunFromOneToTwenty() throws InvalidRequest {
        assertEquals(1, Contract.updateCount("1"));
        assertEquals(20, Contract.updateCount("20"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "01", "21", "99", "100", "1.5", " 1", "abc", ""})
    void anythingElseIsNotAnUpdateCount(String queries) {
        refused(400, "queries must be an integer from 1 to 20", () -> Contract.updateCount(queries));
    }

    @Test
    void theUpdatesCheckTheirCountThenTheEngine() {
        refused(400, "queries must be an integer from 1 to 20", () -> VersionUpdate.drawn(null, "memory"));
        refused(400, "engine must be myisam or innodb", () -> VersionUpdate.drawn("20", "memory"));
    }

    @Test
    void enginesMapToFixedTablesAndMyisamIsTheDefault() throws InvalidRequest {
        assertEquals("people_myisam", Contract.table(null));
        assertEquals("people_myisam", Contract.table("myisam"));
        assertEquals("people_innodb", Contract.table("innodb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"InnoDB", "MYISAM", "memory", "people_innodb", "innodb;", "", " innodb"})
    void otherEnginesAreRefused(String engine) {
        refused(400, "engine must be myisam or innodb", () -> Contract.table(engine));
    }

    @Test
    void namesAreLikePatternsOfAtMost64CharactersOfText() throws InvalidRequest {
        assertEquals("%", Contract.namePattern(null));
        assertEquals("O'%", Contract.namePattern("O'%"));
        String longest = "é".repeat(63) + "\uD83D\uDE00";  // 64 code points, one outside the BMP
        assertEquals(longest, Contract.namePattern(longest));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0000", "a\tb", "a\nb", "\u001f", "\u007f", "\uFFFD"})
    void controlCharactersAndReplacementCharactersAreRefused(String name) {
        refused(400, "name must be at most 64 characters of text", () -> Contract.namePattern(name));
    }

    @Test
    void aNameOf65CharactersIsRefused() {
        refused(400, "name must be at most 64 characters of text", () -> Contract.namePattern("x".repeat(65)));
    }

    @Test
    void aParameterGivenTwiceIsRefusedAndAnAbsentOneIsNull() throws InvalidRequest {
        assertNull(Contract.single("id", null));
        assertNull(Contract.single("id", new String[0]));
        assertEquals("7", Contract.single("id", new String[] {"7"}));
        refused(400, "parameter engine given more than once",
            () -> Contract.single("engine", new String[] {"myisam", "myisam"}));
    }

    @Test
    void theQueriesArePreparedWithOnePlaceholder() {
        assertEquals("SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, "
            + "bats, throws FROM people_innodb WHERE id = ?", Contract.singleSql("people_innodb"));
        assertEquals("SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, "
            + "bats, throws FROM people_myisam WHERE nameLast LIKE ? ORDER BY id", Contract.largeSql("people_myisam"));
        assertEquals("SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, "
            + "bats, throws FROM people_innodb ORDER BY id LIMIT ?", Contract.rowsSql("people_innodb"));
    }

    @Test
    void aQueryChecksItsIdBeforeItsEngine() {
        refused(400, "id must be an integer from 1 to 2147483647", () -> PlayerQuery.single("x", "aria"));
        refused(400, "engine must be myisam or innodb", () -> PlayerQuery.single("1", "aria"));
        refused(400, "name must be at most 64 characters of text", () -> PlayerQuery.large("\u0000", "aria"));
        refused(400, "count must be an integer from 1 to 16000", () -> PlayerQuery.rows("0", "aria"));
        refused(400, "engine must be myisam or innodb", () -> PlayerQuery.rows("10", "aria"));
    }
}
