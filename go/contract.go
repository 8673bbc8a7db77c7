package main

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rules of contract/README.md: the columns, the engine-to-table map, the four workloads' queries
// and how their parameters are checked.

var columns = []string{"id", "playerID", "nameFirst", "nameLast", "birthYear", "birthMonth",
	"birthDay", "weight", "height", "bats", "throws"}

// versionedColumns: the update page's, the row's version last (no read page shows it).
var versionedColumns = append(columns[:len(columns):len(columns)], "ver")

const (
	maxNameLength = 64
	maxRowCount   = 16000
	// maxUpdates is the most rows an updates request raises: TechEmpower's top level of its updates test.
	maxUpdates = 20
)

var (
	validID      = regexp.MustCompile(`^[1-9][0-9]{0,9}$`)
	validCount   = regexp.MustCompile(`^[1-9][0-9]{0,4}$`)
	validQueries = regexp.MustCompile(`^[1-9][0-9]?$`)
	selectFrom   = "SELECT " + strings.Join(columns, ", ") + " FROM "
)

// invalidRequest is an answer of the contract's validation table: its status and message.
type invalidRequest struct {
	status  int
	message string
}

func (e *invalidRequest) Error() string { return e.message }

func badRequest(message string) *invalidRequest { return &invalidRequest{400, message} }

// A query is one of the contract's SELECTs with its one parameter, checked.
type query struct {
	sql      string
	argument any
}

// parameters holds a query string's values by name. A raw query string is split on '&' alone (as
// PHP and Tomcat do; url.ParseQuery would drop a pair holding ';'). One whose percent-encoding is
// malformed anywhere does not decode: every known parameter reads as U+FFFD, so that the contract's
// first check refuses it, as Tomcat 11 refuses such a query string whole.
type parameters map[string][]string

var knownParameters = []string{"id", "name", "count", "queries", "engine"}

func parseQuery(raw string) parameters {
	values := parameters{}
	if _, err := url.QueryUnescape(raw); err != nil {
		for _, name := range knownParameters {
			values[name] = []string{string(utf8.RuneError)}
		}
		return values
	}
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		// Neither can fail: every escape of the whole string decoded.
		key, _ = url.QueryUnescape(key)
		value, _ = url.QueryUnescape(value)
		values[key] = append(values[key], value)
	}
	return values
}

// one is a parameter's one value, present or not; given more than once it is refused.
func (p parameters) one(name string) (string, bool, error) {
	switch values := p[name]; len(values) {
	case 0:
		return "", false, nil
	case 1:
		return values[0], true, nil
	default:
		return "", false, badRequest(fmt.Sprintf("parameter %s given more than once", name))
	}
}

// table is the fixed table for an engine name (myisam when absent); the name never reaches SQL.
func (p parameters) table() (string, error) {
	engine, given, err := p.one("engine")
	switch {
	case err != nil:
		return "", err
	case !given || engine == "myisam":
		return "people_myisam", nil
	case engine == "innodb":
		return "people_innodb", nil
	}
	return "", badRequest("engine must be myisam or innodb")
}

// idAndTable checks the id, then the engine: the single and update pages' parameters.
func idAndTable(p parameters) (int64, string, error) {
	const message = "id must be an integer from 1 to 2147483647"
	id, _, err := p.one("id")
	if err != nil {
		return 0, "", err
	}
	if !validID.MatchString(id) {
		return 0, "", badRequest(message)
	}
	number, err := strconv.ParseInt(id, 10, 32)
	if err != nil {
		return 0, "", badRequest(message)
	}
	table, err := p.table()
	return number, table, err
}

func singleQuery(p parameters) (query, error) {
	id, table, err := idAndTable(p)
	return query{selectFrom + table + " WHERE id = ?", id}, err
}

// updateQueries: the update page's UPDATE of the row's version, then its SELECT of the row with it.
func updateQueries(p parameters) (query, query, error) {
	id, table, err := idAndTable(p)
	raise, read := versionStatements(table)
	return query{raise, id}, query{read, id}, err
}

// versionStatements: the write workloads' UPDATE of a row's version, then their SELECT of the row with it.
func versionStatements(table string) (raise, read string) {
	return "UPDATE " + table + " SET ver = ver + 1 WHERE id = ?",
		"SELECT " + strings.Join(versionedColumns, ", ") + " FROM " + table + " WHERE id = ?"
}

// updatesCount checks the updates page's count, then the engine.
func updatesCount(p parameters) (int, string, error) {
	queries, _, err := p.one("queries")
	if err != nil {
		return 0, "", err
	}
	count, _ := strconv.Atoi(queries)
	if !validQueries.MatchString(queries) || count > maxUpdates {
		return 0, "", badRequest(fmt.Sprintf("queries must be an integer from 1 to %d", maxUpdates))
	}
	table, err := p.table()
	return count, table, err
}

// drawnIDs: count distinct ids, each uniform over the table's (math/rand/v2's, as TechEmpower's go-std draws).
func drawnIDs(count int) []int64 {
	seen := make(map[int64]bool, count)
	ids := make([]int64, 0, count)
	for len(ids) < count {
		if id := int64(rand.IntN(maxRowCount)) + 1; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// largeQuery checks the name (a LIKE pattern, '%' when absent), then the engine.
func largeQuery(p parameters) (query, error) {
	name, given, err := p.one("name")
	if err != nil {
		return query{}, err
	}
	if !given {
		name = "%"
	} else if !isText(name) {
		return query{}, badRequest("name must be at most 64 characters of text")
	}
	table, err := p.table()
	return query{selectFrom + table + " WHERE nameLast LIKE ? ORDER BY id", name}, err
}

// rowsQuery checks the count, then the engine.
func rowsQuery(p parameters) (query, error) {
	count, _, err := p.one("count")
	if err != nil {
		return query{}, err
	}
	number, convErr := strconv.Atoi(count)
	if !validCount.MatchString(count) || convErr != nil || number > maxRowCount {
		return query{}, badRequest(fmt.Sprintf("count must be an integer from 1 to %d", maxRowCount))
	}
	table, err := p.table()
	return query{selectFrom + table + " ORDER BY id LIMIT ?", number}, err
}

// isText: valid UTF-8 of at most 64 characters, none a control character or U+FFFD.
func isText(name string) bool {
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxNameLength {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r == utf8.RuneError
	})
}
