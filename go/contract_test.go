package main

import (
	"errors"
	"strings"
	"testing"
)

func message(err error) string {
	var invalid *invalidRequest
	if errors.As(err, &invalid) {
		return invalid.message
	}
	return ""
}

func TestAMalformedEscapeAnywhereLeavesEveryKnownParameterUndecodable(t *testing.T) {
	for _, raw := range []string{"id=1&bad=%zz", "name=%", "id=1&%4=x", "count=100%"} {
		got := parseQuery(raw)
		for _, name := range []string{"id", "name", "count", "engine"} {
			if v := got[name]; len(v) != 1 || v[0] != "\uFFFD" {
				t.Errorf("%s: %s should read as U+FFFD: %q", raw, name, v)
			}
		}
	}
	if _, err := singleQuery(parseQuery("id=1&engine=%ZZ")); err == nil || err.Error() != "id must be an integer from 1 to 2147483647" {
		t.Errorf("the first check answers: %v", err)
	}
}

func TestParseQuerySplitsOnAmpersandsAlone(t *testing.T) {
	got := parseQuery("name=a;b&id=1&id=2&x&engine=inn%6Fdb&+=%2B")
	if v := got["name"]; len(v) != 1 || v[0] != "a;b" {
		t.Errorf("name: %q", v)
	}
	if v := got["id"]; len(v) != 2 {
		t.Errorf("id: %q", v)
	}
	if v := got["engine"]; v[0] != "innodb" {
		t.Errorf("engine: %q", v)
	}
	if v := got[" "]; v[0] != "+" {
		t.Errorf("'+' is a space, %%2B a plus: %q", v)
	}
}

func TestSingleChecksTheIdThenTheEngine(t *testing.T) {
	const idMessage = "id must be an integer from 1 to 2147483647"
	for _, id := range []string{"", "abc", "0", "-1", "007", "+1", " 1", "1.5", "0x10", "2147483648",
		"99999999999999999999", "1 OR 1=1", "1\x00", strings.Repeat("9", 10000)} {
		if _, err := singleQuery(parseQuery("id=" + id)); message(err) != idMessage {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if _, err := singleQuery(parseQuery("id=x&engine=memory")); message(err) != idMessage {
		t.Errorf("the id is checked first: %v", err)
	}
	if _, err := singleQuery(parseQuery("id=1&engine=MYISAM")); message(err) != "engine must be myisam or innodb" {
		t.Errorf("engine: %v", err)
	}
	if _, err := singleQuery(parseQuery("id=1&id=2")); message(err) != "parameter id given more than once" {
		t.Errorf("repeated id: %v", err)
	}
	q, err := singleQuery(parseQuery("id=2147483647&engine=innodb&unknown=x"))
	if err != nil || q.argument != int64(2147483647) || !strings.HasSuffix(q.sql, "FROM people_innodb WHERE id = ?") {
		t.Errorf("a valid request: %+v %v", q, err)
	}
}

func TestUpdateChecksAsSingleDoesThenRaisesTheVersionAndReadsTheRowWithIt(t *testing.T) {
	if _, _, err := updateQueries(parseQuery("id=0&engine=memory")); message(err) != "id must be an integer from 1 to 2147483647" {
		t.Errorf("the id is checked first: %v", err)
	}
	raise, read, err := updateQueries(parseQuery("id=7&engine=innodb"))
	if err != nil || raise.sql != "UPDATE people_innodb SET ver = ver + 1 WHERE id = ?" || raise.argument != int64(7) {
		t.Errorf("the update: %+v %v", raise, err)
	}
	if !strings.HasSuffix(read.sql, ", throws, ver FROM people_innodb WHERE id = ?") || read.argument != int64(7) {
		t.Errorf("the read back: %+v", read)
	}
	if len(columns) != 11 {
		t.Errorf("the read pages' columns gained the version: %v", columns)
	}
}

func TestLargeTakesAnyTextUpTo64Characters(t *testing.T) {
	q, err := largeQuery(parseQuery(""))
	if err != nil || q.argument != "%" || !strings.Contains(q.sql, "people_myisam WHERE nameLast LIKE ? ORDER BY id") {
		t.Errorf("no name is every row: %+v %v", q, err)
	}
	for _, name := range []string{strings.Repeat("é", 64), "' OR '1'='1", "%\\_%"} {
		if q, err := largeQuery(parameters{"name": {name}}); err != nil || q.argument != name {
			t.Errorf("name %q: %v", name, err)
		}
	}
	for _, name := range []string{strings.Repeat("a", 65), "Smith\n", "\x00", "\x7f", "\uFFFD", "\xC3\x28"} {
		if _, err := largeQuery(parameters{"name": {name}}); message(err) != "name must be at most 64 characters of text" {
			t.Errorf("name %q: %v", name, err)
		}
	}
}

func TestRowsTakesACountFrom1To16000(t *testing.T) {
	for _, count := range []string{"", "0", "010", "-1", "16001", "99999", "1 OR 1=1"} {
		if _, err := rowsQuery(parseQuery("count=" + count)); message(err) != "count must be an integer from 1 to 16000" {
			t.Errorf("count %q: %v", count, err)
		}
	}
	if q, err := rowsQuery(parseQuery("count=16000&engine=innodb")); err != nil || q.argument != 16000 {
		t.Errorf("16000 rows: %+v %v", q, err)
	}
}

func TestEscapingIsPHPs(t *testing.T) {
	if got := escaper.Replace(`O'Berry & <b>"x"</b>`); got != "O&#039;Berry &amp; &lt;b&gt;&quot;x&quot;&lt;/b&gt;" {
		t.Error(got)
	}
}

func TestUpdatesCheckTheirCountThenTheEngine(t *testing.T) {
	const countMessage = "queries must be an integer from 1 to 20"
	for _, queries := range []string{"", "0", "-1", "01", "21", "99", "100", "1.5", " 1", "abc", strings.Repeat("9", 10000)} {
		if _, _, err := updatesCount(parseQuery("queries=" + queries)); message(err) != countMessage {
			t.Errorf("queries %q: %v", queries, err)
		}
	}
	if _, _, err := updatesCount(parseQuery("engine=memory")); message(err) != countMessage {
		t.Errorf("the count is checked first: %v", err)
	}
	if _, _, err := updatesCount(parseQuery("queries=20&engine=memory")); message(err) != "engine must be myisam or innodb" {
		t.Errorf("engine: %v", err)
	}
	if count, table, err := updatesCount(parseQuery("queries=20&engine=innodb")); count != 20 || table != "people_innodb" || err != nil {
		t.Errorf("queries=20: %d %s %v", count, table, err)
	}
}

func TestDrawnIdsAreDistinctAndWithinTheTable(t *testing.T) {
	for range 1000 {
		ids, seen := drawnIDs(maxUpdates), map[int64]bool{}
		for _, id := range ids {
			if id < 1 || id > maxRowCount || seen[id] {
				t.Fatalf("ids %v: %d is outside 1..%d or drawn twice", ids, id, maxRowCount)
			}
			seen[id] = true
		}
		if len(ids) != maxUpdates {
			t.Fatalf("%d ids, not %d", len(ids), maxUpdates)
		}
	}
}
