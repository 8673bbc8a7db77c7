/*
 * The contract's PlayerService on gSOAP 2.8 in C: the serializers and dispatch soapcpp2 generates
 * from contract/PlayerService.wsdl, a fixed pool of worker threads serving the connections the
 * main thread accepts, and a bounded pool of MariaDB connections (each with its prepared
 * statements) that the workers borrow for one call.
 *
 *   player-service --bind ADDR --port N --config FILE --pidfile FILE --threads N --connections N
 *                  --wsdl FILE --quote-response FILE --backlog N --max-depth N [--phases-log FILE]
 *
 * FILE is the lab's app settings (db.host, db.port, db.name, db.user, db.password), as the Java
 * apps read them. Logs go to stderr.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <errmsg.h>
#include <mysql.h>

#include "soapH.h"
#include "PlayerServiceSoapBinding.nsmap"

#define SERVICE_NAMESPACE "urn:lab"
#define SERVICE_PATH "/soap-gsoap/PlayerService"
/* The engine-less baselines (ICWS'08, Figs. 1-2): getQuote's canned answer, POSTed to (the body is
 * read, not parsed) and as a static file. */
#define CANNED_QUOTE_PATH "/soap-gsoap/canned-quote"
#define STATIC_QUOTE_PATH "/soap-gsoap/quote-response.xml"
#define MALFORMED "malformed SOAP request"
#define MAX_ROW_COUNT 16000
#define MAX_NAME_CHARACTERS 64
/* The contract's bound on a request body; the 10 MB envelope of its tests is read, then refused by rule. */
#define MAX_MESSAGE_BYTES (16L * 1024 * 1024)
#define TOO_LARGE "request body must be at most 16 MB"
#define POOL_WAIT_SECONDS 5
#define TEXT_BYTES 257 /* VARCHAR(64) of utf8mb4, and its terminator */
#define MAX_ITEMS 16000
#define MAX_LIST_NODES 64
#define MAX_IMAGE_BYTES (1 << 20) /* Lublin's image, past the paper's million variables */

enum query { SINGLE, LARGE, ROWS, UPDATE, VERSIONED, QUERIES };
enum table { MYISAM, INNODB, TABLES };
#define COLUMNS "id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws"
static const char *const QUERY_SQL[QUERIES][TABLES] = {
    {"SELECT " COLUMNS " FROM people_myisam WHERE id = ?", "SELECT " COLUMNS " FROM people_innodb WHERE id = ?"},
    {"SELECT " COLUMNS " FROM people_myisam WHERE nameLast LIKE ? ORDER BY id",
     "SELECT " COLUMNS " FROM people_innodb WHERE nameLast LIKE ? ORDER BY id"},
    {"SELECT " COLUMNS " FROM people_myisam ORDER BY id LIMIT ?", "SELECT " COLUMNS " FROM people_innodb ORDER BY id LIMIT ?"},
    /* The update workload: the version raised in autocommit, then the row read back with it. */
    {"UPDATE people_myisam SET ver = ver + 1 WHERE id = ?", "UPDATE people_innodb SET ver = ver + 1 WHERE id = ?"},
    {"SELECT " COLUMNS ", ver FROM people_myisam WHERE id = ?", "SELECT " COLUMNS ", ver FROM people_innodb WHERE id = ?"},
};

static void say(const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "player-service: ");
    vfprintf(stderr, format, arguments);
    fprintf(stderr, "\n");
    va_end(arguments);
}

/* ---- settings ---------------------------------------------------------------------------- */

static struct { char host[256], name[256], user[256], password[256]; unsigned port; } db_settings;

static int read_settings(const char *path)
{
    FILE *file = fopen(path, "r");
    char line[1024];
    if (!file)
        return -1;
    while (fgets(line, sizeof line, file)) {
        char *value = strchr(line, '=');
        if (!value)
            continue;
        *value++ = '\0';
        value[strcspn(value, "\r\n")] = '\0';
        if (!strcmp(line, "db.host"))
            snprintf(db_settings.host, sizeof db_settings.host, "%s", value);
        else if (!strcmp(line, "db.port"))
            db_settings.port = (unsigned)atoi(value);
        else if (!strcmp(line, "db.name"))
            snprintf(db_settings.name, sizeof db_settings.name, "%s", value);
        else if (!strcmp(line, "db.user"))
            snprintf(db_settings.user, sizeof db_settings.user, "%s", value);
        else if (!strcmp(line, "db.password"))
            snprintf(db_settings.password, sizeof db_settings.password, "%s", value);
    }
    fclose(file);
    return db_settings.host[0] && db_settings.port && db_settings.user[0] ? 0 : -1;
}

/* ---- the contract's validation (contract/README.md) --------------------------------------- */

/* Digits only, first not 0, at most `digits` of them, at most `largest`; the value, or -1. */
static long bounded_number(const char *text, int digits, long largest)
{
    long value = 0;
    int length = 0;
    if (!text || text[0] < '1' || text[0] > '9')
        return -1;
    for (; text[length]; length++) {
        if (text[length] < '0' || text[length] > '9' || length == digits)
            return -1;
        value = value * 10 + (text[length] - '0');
    }
    return value <= largest ? value : -1;
}

static int table_of(const char *engine)
{
    if (!engine || !strcmp(engine, "myisam"))
        return MYISAM;
    return strcmp(engine, "innodb") ? -1 : INNODB;
}

/* The code point UTF-8 starts with at *next (which moves past it), or -1 for invalid UTF-8. */
static long next_code_point(const unsigned char **next)
{
    const unsigned char *at = *next;
    unsigned code, extra;
    if (*at < 0x80) { code = *at; extra = 0; }
    else if ((*at & 0xE0) == 0xC0) { code = *at & 0x1F; extra = 1; }
    else if ((*at & 0xF0) == 0xE0) { code = *at & 0x0F; extra = 2; }
    else if ((*at & 0xF8) == 0xF0) { code = *at & 0x07; extra = 3; }
    else return -1;
    at++;
    for (unsigned i = 0; i < extra; i++, at++) {
        if ((*at & 0xC0) != 0x80)
            return -1;
        code = (code << 6) | (*at & 0x3F);
    }
    if ((extra == 1 && code < 0x80) || (extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000)
        || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return -1;
    *next = at;
    return code;
}

/* Valid UTF-8 of at most 64 code points, none a control character (U+0000-U+001F, U+007F) or U+FFFD. */
static int is_name_pattern(const char *name)
{
    const unsigned char *next = (const unsigned char *)name;
    int characters = 0;
    while (*next) {
        long code = next_code_point(&next);
        if (code < 0x20 || code == 0x7F || code == 0xFFFD || ++characters > MAX_NAME_CHARACTERS)
            return 0;
    }
    return 1;
}

/* Valid UTF-8 (gSOAP passes a string's bytes through unchecked). */
static int is_utf8(const char *text)
{
    const unsigned char *next = (const unsigned char *)text;
    while (*next)
        if (next_code_point(&next) < 0)
            return 0;
    return 1;
}

/* ---- the connection pool ------------------------------------------------------------------ */

struct connection {
    MYSQL *db;                                /* NULL until connected, and after a failure */
    MYSQL_STMT *statements[QUERIES][TABLES];  /* prepared on first use */
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t returned;
    struct connection *idle;
    int idle_count, size;
    int waiting;                    /* threads waiting for a connection now */
    int most_waiting, most_active;  /* the most of each in the current second, for the pool's log */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, 0, 0};

/* Called with the pool's lock held, after every change. */
static void note_pool_use(void)
{
    int active = pool.size - pool.idle_count;
    if (pool.waiting > pool.most_waiting)
        pool.most_waiting = pool.waiting;
    if (active > pool.most_active)
        pool.most_active = active;
}

/*
 * The pool's log, as the pooled servlet's (PoolWaitLog.java) and read by the same monitor
 * (harness/measure/pool_log.py): for every second in which the pool was in use, the most threads
 * that waited for a connection and the most connections in use ("epoch-second TAB waiting TAB
 * active"). The sweep reads it per step, to tell a pool that is too small from a CPU that is too slow.
 */
static void *pool_log_writer(void *path)
{
    for (;;) {
        time_t second = time(NULL);
        int waiting, active;
        FILE *log;
        while (time(NULL) == second)
            usleep(20000);
        pthread_mutex_lock(&pool.lock);
        waiting = pool.most_waiting;
        active = pool.most_active;
        pool.most_waiting = pool.waiting;
        pool.most_active = pool.size - pool.idle_count;
        pthread_mutex_unlock(&pool.lock);
        if (waiting + active == 0)
            continue;
        log = fopen(path, "a");
        if (log) {
            fprintf(log, "%ld\t%d\t%d\n", (long)second, waiting, active);
            fclose(log);
        }
    }
    return NULL;
}

static void disconnect(struct connection *connection)
{
    for (int query = 0; query < QUERIES; query++)
        for (int table = 0; table < TABLES; table++)
            if (connection->statements[query][table])
                mysql_stmt_close(connection->statements[query][table]);
    if (connection->db)
        mysql_close(connection->db);
    memset(connection, 0, sizeof *connection);
}

/* A connection of the pool, waiting at most POOL_WAIT_SECONDS for one; 0 when none freed up. */
static int borrow(struct connection *out)
{
    struct timespec deadline;
    int result = 0;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += POOL_WAIT_SECONDS;
    pthread_mutex_lock(&pool.lock);
    if (pool.idle_count == 0) {
        pool.waiting++;
        note_pool_use();
        while (pool.idle_count == 0 && result == 0)
            result = pthread_cond_timedwait(&pool.returned, &pool.lock, &deadline);
        pool.waiting--;
    }
    if (pool.idle_count > 0) {
        *out = pool.idle[--pool.idle_count];
        result = 0;
    }
    note_pool_use();
    pthread_mutex_unlock(&pool.lock);
    return result == 0;
}

/* Connects a connection that is not (yet, or since a failure); 0 when the database refused. */
static int connect_to_database(struct connection *connection)
{
    unsigned timeout = 5;
    if (connection->db)
        return 1;
    connection->db = mysql_init(NULL);
    mysql_options(connection->db, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(connection->db, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (!mysql_real_connect(connection->db, db_settings.host, db_settings.user, db_settings.password,
                            db_settings.name, db_settings.port, NULL, 0)) {
        say("database error: %s", mysql_error(connection->db));
        disconnect(connection);
        return 0;
    }
    return 1;
}

/*
 * Whether the server has closed a pooled connection while it idled (a restart, wait_timeout): between
 * calls nothing is owed to the client, so a readable socket holds the server's goodbye, an error or
 * the end of the stream. Asked of the socket alone, with no command sent to the database.
 */
static int closed_by_server(struct connection *connection)
{
    struct pollfd socket_state = {mysql_get_socket(connection->db), POLLIN, 0};
    return poll(&socket_state, 1, 0) != 0;
}

static void give_back(struct connection *connection)
{
    pthread_mutex_lock(&pool.lock);
    pool.idle[pool.idle_count++] = *connection;
    pthread_cond_signal(&pool.returned);
    pthread_mutex_unlock(&pool.lock);
}

/* ---- the queries -------------------------------------------------------------------------- */

struct row_buffers {
    int numbers[6]; /* id, birthYear, birthMonth, birthDay, weight, height */
    char text[5][TEXT_BYTES]; /* playerID, nameFirst, nameLast, bats, throws */
    unsigned long lengths[5];
    int version; /* ver, which only the update's SELECT reads */
    MYSQL_BIND bind[12];
};

/* Binds the contract's columns, then ver: a statement of 11 columns reads the first 11 binds alone. */
static void bind_row(struct row_buffers *row)
{
    /* Columns in the contract's order: id, playerID, nameFirst, nameLast, four numbers... */
    static const int kinds[11] = {0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1};
    int number = 0, text = 0;
    memset(row->bind, 0, sizeof row->bind);
    row->bind[11].buffer_type = MYSQL_TYPE_LONG;
    row->bind[11].buffer = &row->version;
    for (int column = 0; column < 11; column++) {
        MYSQL_BIND *bind = &row->bind[column];
        if (kinds[column] == 0) {
            bind->buffer_type = MYSQL_TYPE_LONG;
            bind->buffer = &row->numbers[number++];
        } else {
            bind->buffer_type = MYSQL_TYPE_STRING;
            bind->buffer = row->text[text];
            bind->buffer_length = TEXT_BYTES;
            bind->length = &row->lengths[text++];
        }
    }
}

static char *text_copy(struct soap *soap, const struct row_buffers *row, int text)
{
    char *copy = soap_malloc(soap, row->lengths[text] + 1);
    memcpy(copy, row->text[text], row->lengths[text]);
    copy[row->lengths[text]] = '\0';
    return copy;
}

/* The contract's columns of a fetched row into a Player or a VersionedPlayer (the same members). */
#define FILL_PLAYER(soap, player, row)                    \
    do {                                                  \
        (player)->id = (row)->numbers[0];                 \
        (player)->playerID = text_copy(soap, row, 0);     \
        (player)->nameFirst = text_copy(soap, row, 1);    \
        (player)->nameLast = text_copy(soap, row, 2);     \
        (player)->birthYear = (row)->numbers[1];          \
        (player)->birthMonth = (row)->numbers[2];         \
        (player)->birthDay = (row)->numbers[3];           \
        (player)->weight = (row)->numbers[4];             \
        (player)->height = (row)->numbers[5];             \
        (player)->bats = text_copy(soap, row, 3);         \
        (player)->throws = text_copy(soap, row, 4);       \
    } while (0)

/* The connection's statement of a query on a table, prepared on its first use; 0, or MySQL's error number. */
static unsigned prepared(struct connection *connection, enum query query, int table, MYSQL_STMT **out)
{
    MYSQL_STMT *statement = connection->statements[query][table];
    if (!statement) {
        statement = mysql_stmt_init(connection->db);
        if (!statement)
            return mysql_errno(connection->db);
        connection->statements[query][table] = statement;
        if (mysql_stmt_prepare(statement, QUERY_SQL[query][table], strlen(QUERY_SQL[query][table])))
            return mysql_stmt_errno(statement);
    }
    *out = statement;
    return 0;
}

/* A query's rows on a connected connection, into a soap-managed array; 0, or MySQL's error number. */
struct players_query {
    enum query query;
    int table;
    MYSQL_BIND *parameter;
    struct lab__Player **players;
    int *count;
};

static unsigned fetch_players(struct soap *soap, struct connection *connection, void *context)
{
    struct players_query *asked = context;
    struct lab__Player **players = asked->players;
    int *count = asked->count;
    struct row_buffers row;
    MYSQL_STMT *statement;
    int capacity = 0, status;
    unsigned error;
    *players = NULL;
    *count = 0;
    if ((error = prepared(connection, asked->query, asked->table, &statement)))
        return error;
    bind_row(&row);
    if (mysql_stmt_bind_param(statement, asked->parameter) || mysql_stmt_execute(statement)
        || mysql_stmt_bind_result(statement, row.bind))
        return mysql_stmt_errno(statement);
    /* Unbuffered: rows come from the server one fetch at a time. */
    while ((status = mysql_stmt_fetch(statement)) == 0 || status == MYSQL_DATA_TRUNCATED) {
        if (*count == capacity) {
            struct lab__Player *grown;
            capacity = capacity ? capacity * 2 : 16;
            grown = soap_malloc(soap, capacity * sizeof *grown);
            if (*count)
                memcpy(grown, *players, *count * sizeof *grown);
            *players = grown;
        }
        struct lab__Player *player = &(*players)[(*count)++];
        FILL_PLAYER(soap, player, &row);
    }
    error = status == MYSQL_NO_DATA ? 0 : mysql_stmt_errno(statement);
    mysql_stmt_free_result(statement);
    return error;
}

/*
 * update's two statements on a connected connection: the UPDATE in autocommit (the connection's
 * default), then the row read back with its version; *player NULL when no row has the id (and
 * nothing was written). 0, or MySQL's error number.
 */
struct player_update {
    int table;
    MYSQL_BIND *parameter;
    struct lab__VersionedPlayer **player;
};

static unsigned update_player(struct soap *soap, struct connection *connection, void *context)
{
    struct player_update *asked = context;
    struct row_buffers row;
    MYSQL_STMT *update = NULL, *select = NULL;
    unsigned error;
    int status;
    *asked->player = NULL;
    if ((error = prepared(connection, UPDATE, asked->table, &update))
        || (error = prepared(connection, VERSIONED, asked->table, &select)))
        return error;
    if (mysql_stmt_bind_param(update, asked->parameter) || mysql_stmt_execute(update))
        return mysql_stmt_errno(update);
    if (mysql_stmt_affected_rows(update) == 0)
        return 0;
    bind_row(&row);
    if (mysql_stmt_bind_param(select, asked->parameter) || mysql_stmt_execute(select)
        || mysql_stmt_bind_result(select, row.bind))
        return mysql_stmt_errno(select);
    status = mysql_stmt_fetch(select);
    if (status == 0 || status == MYSQL_DATA_TRUNCATED) {
        struct lab__VersionedPlayer *player = soap_malloc(soap, sizeof *player);
        FILL_PLAYER(soap, player, &row);
        player->ver = row.version;
        *asked->player = player;
        status = MYSQL_NO_DATA; /* one row by key: mysql_stmt_free_result discards the end */
    }
    error = status == MYSQL_NO_DATA ? 0 : mysql_stmt_errno(select);
    mysql_stmt_free_result(select);
    return error;
}

/*
 * Runs some database work on a pooled connection, connected anew when the server closed it while it
 * idled. One that broke as the work ran is reconnected and the work run once more when `retry` (a
 * read's); a write is never retried, since it may have run before the connection broke. Any other failure
 * is the Server fault "database unavailable", the connection closed to be reconnected on its next use.
 */
static int on_pooled_connection(struct soap *soap, unsigned (*work)(struct soap *, struct connection *, void *),
                                void *context, int retry)
{
    struct connection connection;
    unsigned error = CR_CONNECTION_ERROR;
    int reused;
    if (!borrow(&connection))
        return soap_receiver_fault(soap, "database unavailable", NULL);
    if (connection.db && closed_by_server(&connection))
        disconnect(&connection);
    reused = connection.db != NULL;
    if (connect_to_database(&connection)) {
        error = work(soap, &connection, context);
        if (retry && reused && (error == CR_SERVER_GONE_ERROR || error == CR_SERVER_LOST)) {
            disconnect(&connection);
            if (connect_to_database(&connection))
                error = work(soap, &connection, context);
        }
        if (error) {
            say("database error %u", error);
            disconnect(&connection);
        }
    }
    give_back(&connection);
    return error ? soap_receiver_fault(soap, "database unavailable", NULL) : SOAP_OK;
}

static int run_query(struct soap *soap, enum query query, int table, MYSQL_BIND *parameter,
                     struct lab__Player **players, int *count)
{
    struct players_query asked = {query, table, parameter, players, count};
    return on_pooled_connection(soap, fetch_players, &asked, 1);
}

static void bind_int(MYSQL_BIND *bind, int *value)
{
    memset(bind, 0, sizeof *bind);
    bind->buffer_type = MYSQL_TYPE_LONG;
    bind->buffer = value;
}

/* ---- the operations (declared by soapcpp2 in soapStub.h) --------------------------------- */

/* A single row's parameters, checked in the contract's order (the id, then the engine); 0, or the Client fault. */
static int player_parameters(struct soap *soap, const char *id_text, const char *engine, int *id, int *table)
{
    long checked = bounded_number(id_text, 10, 2147483647L);
    if (checked < 0)
        return soap_sender_fault(soap, "id must be an integer from 1 to 2147483647", NULL);
    if ((*table = table_of(engine)) < 0)
        return soap_sender_fault(soap, "engine must be myisam or innodb", NULL);
    *id = (int)checked;
    return SOAP_OK;
}

int __lab__getPlayer(struct soap *soap, struct _lab__getPlayer *request, struct _lab__getPlayerResponse *response)
{
    MYSQL_BIND parameter;
    struct lab__Player *players;
    int count, table, id;
    if (player_parameters(soap, request->id, request->engine, &id, &table))
        return soap->error;
    bind_int(&parameter, &id);
    if (run_query(soap, SINGLE, table, &parameter, &players, &count))
        return soap->error;
    response->getPlayerReturn = count ? players : NULL; /* none: an xsi:nil result */
    return SOAP_OK;
}

int __lab__updatePlayer(struct soap *soap, struct _lab__updatePlayer *request,
                        struct _lab__updatePlayerResponse *response)
{
    MYSQL_BIND parameter;
    int table, id;
    if (player_parameters(soap, request->id, request->engine, &id, &table))
        return soap->error;
    bind_int(&parameter, &id);
    struct player_update asked = {table, &parameter, &response->updatePlayerReturn};
    /* none: an xsi:nil result, and nothing was written */
    return on_pooled_connection(soap, update_player, &asked, 0);
}

int __lab__findPlayers(struct soap *soap, struct _lab__findPlayers *request, struct _lab__findPlayersResponse *response)
{
    MYSQL_BIND parameter;
    const char *name = request->name ? request->name : "%";
    unsigned long length = strlen(name);
    int table;
    if (!is_name_pattern(name))
        return soap_sender_fault(soap, "name must be at most 64 characters of text", NULL);
    if ((table = table_of(request->engine)) < 0)
        return soap_sender_fault(soap, "engine must be myisam or innodb", NULL);
    memset(&parameter, 0, sizeof parameter);
    parameter.buffer_type = MYSQL_TYPE_STRING;
    parameter.buffer = (void *)name;
    parameter.buffer_length = length;
    parameter.length = &length;
    if (run_query(soap, LARGE, table, &parameter, &response->findPlayersReturn, &response->__sizefindPlayersReturn))
        return soap->error;
    return SOAP_OK;
}

int __lab__firstPlayers(struct soap *soap, struct _lab__firstPlayers *request, struct _lab__firstPlayersResponse *response)
{
    MYSQL_BIND parameter;
    int table;
    long count = bounded_number(request->count, 5, MAX_ROW_COUNT);
    if (count < 0)
        return soap_sender_fault(soap, "count must be an integer from 1 to 16000", NULL);
    if ((table = table_of(request->engine)) < 0)
        return soap_sender_fault(soap, "engine must be myisam or innodb", NULL);
    int value = (int)count;
    bind_int(&parameter, &value);
    if (run_query(soap, ROWS, table, &parameter, &response->firstPlayersReturn, &response->__sizefirstPlayersReturn))
        return soap->error;
    return SOAP_OK;
}

/* ---- the SOAP papers' operations: no database (contract/README.md, "Echo operations") ------ */

static int items_refused(struct soap *soap, int count)
{
    return count < 1 || count > MAX_ITEMS ? soap_sender_fault(soap, "echo takes 1 to 16000 items", NULL) : SOAP_OK;
}

/* NaN and the infinities are valid xs:double, but PHP cannot write them back: refused everywhere. */
static int not_finite(struct soap *soap, double number)
{
    return isfinite(number) ? SOAP_OK : soap_sender_fault(soap, "numbers must be finite", NULL);
}

/* A struct's text is what the client sent: valid UTF-8 (the others' XML parsers insist on it). */
static int not_text(struct soap *soap, const char *text)
{
    return text && is_utf8(text) ? SOAP_OK : soap_sender_fault(soap, MALFORMED, NULL);
}

int __lab__echoStructs(struct soap *soap, struct _lab__echoStructs *request, struct _lab__echoStructsResponse *response)
{
    if (items_refused(soap, request->__sizeitem))
        return soap->error;
    for (int i = 0; i < request->__sizeitem; i++)
        if (not_finite(soap, request->item[i].varFloat) || not_text(soap, request->item[i].varString))
            return soap->error;
    response->__sizeechoStructsReturn = request->__sizeitem;
    response->echoStructsReturn = request->item;
    return SOAP_OK;
}

int __lab__echoEmployees(struct soap *soap, struct _lab__echoEmployees *request,
                         struct _lab__echoEmployeesResponse *response)
{
    if (items_refused(soap, request->__sizeitem))
        return soap->error;
    for (int i = 0; i < request->__sizeitem; i++) {
        struct lab__Employee *employee = &request->item[i];
        const char *texts[] = {employee->firstName, employee->lastName, employee->email, employee->department,
                               employee->title};
        for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
            if (not_text(soap, texts[t]))
                return soap->error;
        if (not_finite(soap, employee->salary))
            return soap->error;
    }
    response->__sizeechoEmployeesReturn = request->__sizeitem;
    response->echoEmployeesReturn = request->item;
    return SOAP_OK;
}

int __lab__echoList(struct soap *soap, struct _lab__echoList *request, struct _lab__echoListResponse *response)
{
    int nodes = 0;
    for (struct lab__ListNode *node = request->list; node && nodes <= MAX_LIST_NODES; node = node->next) {
        nodes++;
        if (not_finite(soap, node->varFloat) || not_text(soap, node->varString))
            return soap->error;
    }
    if (nodes < 1 || nodes > MAX_LIST_NODES)
        return soap_sender_fault(soap, "list must have 1 to 64 nodes", NULL);
    response->echoListReturn = request->list;
    return SOAP_OK;
}

int __lab__echoInts(struct soap *soap, struct _lab__echoInts *request, struct _lab__echoIntsResponse *response)
{
    if (items_refused(soap, request->__sizeitem))
        return soap->error;
    response->__sizeechoIntsReturn = request->__sizeitem;
    response->echoIntsReturn = request->item;
    return SOAP_OK;
}

int __lab__echoDoubles(struct soap *soap, struct _lab__echoDoubles *request, struct _lab__echoDoublesResponse *response)
{
    if (items_refused(soap, request->__sizeitem))
        return soap->error;
    for (int i = 0; i < request->__sizeitem; i++)
        if (not_finite(soap, request->item[i]))
            return soap->error;
    response->__sizeechoDoublesReturn = request->__sizeitem;
    response->echoDoublesReturn = request->item;
    return SOAP_OK;
}

int __lab__echoStrings(struct soap *soap, struct _lab__echoStrings *request, struct _lab__echoStringsResponse *response)
{
    if (items_refused(soap, request->__sizeitem))
        return soap->error;
    for (int i = 0; i < request->__sizeitem; i++)
        if (not_text(soap, request->item[i]))
            return soap->error;
    response->__sizeechoStringsReturn = request->__sizeitem;
    response->echoStringsReturn = request->item;
    return SOAP_OK;
}

int __lab__echoImage(struct soap *soap, struct _lab__echoImage *request, struct _lab__echoImageResponse *response)
{
    /* A missing element leaves the struct empty (a null pointer, size 0), as an empty one does. */
    int bytes = request->image.__ptr ? request->image.__size : 0;
    if (bytes < 1 || bytes > MAX_IMAGE_BYTES)
        return soap_sender_fault(soap, "image must be 1 to 1048576 bytes", NULL);
    response->echoImageReturn = request->image;
    return SOAP_OK;
}

int __lab__echoVoid(struct soap *soap, struct _lab__echoVoid *request, struct _lab__echoVoidResponse *response)
{
    (void)soap, (void)request, (void)response;
    return SOAP_OK;
}

static int is_symbol(const char *symbol)
{
    size_t length = symbol ? strspn(symbol, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") : 0;
    return length >= 1 && length <= 8 && symbol[length] == '\0';
}

int __lab__getQuote(struct soap *soap, struct _lab__getQuote *request, struct _lab__getQuoteResponse *response)
{
    struct lab__Quote *quote;
    if (!is_symbol(request->symbol))
        return soap_sender_fault(soap, "symbol must be 1 to 8 capital letters", NULL);
    quote = soap_malloc(soap, sizeof *quote);
    if (!quote)
        return soap->error;
    *quote = (struct lab__Quote){request->symbol, "International Business Machines", "2008-06-23T16:00:00Z",
                                 89.5, 88.25, 90.75, 87.5, 88.0, 1.5, 1.625, 1.5e11, 24.75, 3.5, 8765432};
    response->getQuoteReturn = quote;
    return SOAP_OK;
}

/* ---- faults -------------------------------------------------------------------------------- */

/*
 * Every fault leaves as the contract's: the operations' own (SOAP_FAULT, set above) as they are;
 * an operation element outside urn:lab as its own Client fault; anything else gSOAP could not
 * serve (not XML, a DTD, an unknown operation, an empty body) as "malformed SOAP request", with
 * gSOAP's reason in the log.
 */
static void contract_fault(struct soap *soap, const char **code, const char **string)
{
    if (soap->error == SOAP_FAULT)
        return;
    *code = "SOAP-ENV:Client";
    if (soap->error == SOAP_NO_METHOD && soap->tag[0]) {
        const char *namespace = soap_current_namespace_tag(soap, soap->tag);
        if (!namespace || strcmp(namespace, SERVICE_NAMESPACE)) {
            *string = "operation must be in namespace " SERVICE_NAMESPACE;
            return;
        }
    }
    say("refused as malformed: gSOAP error %d", soap->error);
    *string = MALFORMED;
}

/*
 * The request body, read within its Content-Length and checked as it arrives: gSOAP alone reads
 * past the body of an unfinished document (and waits for more), stops a string at a NUL byte or a
 * NUL character reference (which XML cannot carry), reads invalid UTF-8 as Latin-1 and skips a
 * DTD. A body holding any of them or a DTD ("<!D") reads as ended:
 * gSOAP then fails to parse it, and contract_fault answers "malformed SOAP request".
 */
struct body_guard {
    int active, bounded;
    ULONG64 remaining;
    char tail[2]; /* the last two bytes seen, so that "<!D" is found across reads */
    int reference; /* how far into a NUL character reference (&#0; &#x00;) the bytes seen are */
    int continuations; /* UTF-8 continuation bytes still due, the next within [low, high] */
    unsigned char low, high;
};

/* ---- SOAP phases ------------------------------------------------------------------------- */

/* A request's phases as the Infosys paper timed them (the Java engines' lab.common.Phases): with
 * --phases-log, each served request whose operation ran appends "soap-gsoap, un-marshal, logic,
 * marshal" in microseconds, then the bytes gSOAP allocated for the request's data in each phase,
 * tab-separated, to the file. Those bytes are the blocks soap_malloc chains on the connection's alist
 * (each holds its size after the link; gSOAP frees them once the connection is served): a mark keeps
 * the chain's head, and the chain is walked once the reply has gone, so the walk times no phase.
 * Blocks gSOAP takes and gives back within a phase (its growing arrays' stacks) are not counted. gSOAP's callbacks give the bounds: the HTTP
 * headers parsed (fparse), the message received whole (fpreparefinalrecv, after the generated code
 * un-marshalled it), the reply's first send (fprepareinitsend, once the operation returned and gSOAP
 * walked the reply for shared data), the request served (fserveloop). Without the option none of
 * the callbacks but fparse and fserveloop is set, and those test a NULL file. */
struct phase_clock {
    double received, logic_starts, logic_ends; /* seconds, CLOCK_MONOTONIC; 0: not yet */
    void *received_at, *logic_starts_at, *logic_ends_at; /* the connection's alist then */
};

/* What a worker keeps for the request it serves: the body's guard first, so that soap->user is one. */
struct request {
    struct body_guard guard;
    struct phase_clock phases;
};

static FILE *phases_log;
static pthread_mutex_t phases_lock = PTHREAD_MUTEX_INITIALIZER;
static int (*final_receive)(struct soap *);
static int (*initial_send)(struct soap *);

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

/* The bytes of the blocks soap_malloc chained on from `older` to `newer` (its alist then and later). */
static size_t allocated_between(void *newer, void *older)
{
    size_t bytes = 0;
    for (char *block = newer; block && block != older; block = *(char **)block)
        bytes += *(size_t *)(block + sizeof(void *));
    return bytes;
}

static int logic_starts(struct soap *soap)
{
    struct phase_clock *clock = &((struct request *)soap->user)->phases;
    clock->logic_starts = seconds_now();
    clock->logic_starts_at = soap->alist;
    return final_receive ? final_receive(soap) : SOAP_OK;
}

static int logic_ends(struct soap *soap)
{
    struct phase_clock *clock = &((struct request *)soap->user)->phases;
    if (clock->logic_starts && !clock->logic_ends) { /* the count pass and the send both begin a send */
        clock->logic_ends = seconds_now();
        clock->logic_ends_at = soap->alist;
    }
    return initial_send ? initial_send(soap) : SOAP_OK;
}

static void record_phases(struct soap *soap, struct phase_clock *clock)
{
    double sent = seconds_now();
    if (phases_log && clock->received && clock->logic_starts && clock->logic_ends) {
        pthread_mutex_lock(&phases_lock);
        fprintf(phases_log, "soap-gsoap\t%.1f\t%.1f\t%.1f\t%zu\t%zu\t%zu\n", (clock->logic_starts - clock->received) * 1e6,
                (clock->logic_ends - clock->logic_starts) * 1e6, (sent - clock->logic_ends) * 1e6,
                allocated_between(clock->logic_starts_at, clock->received_at),
                allocated_between(clock->logic_ends_at, clock->logic_starts_at),
                allocated_between(soap->alist, clock->logic_ends_at));
        fflush(phases_log);
        pthread_mutex_unlock(&phases_lock);
    }
    *clock = (struct phase_clock){0};
}

static size_t (*receive)(struct soap *, char *, size_t);
static int (*parse_http)(struct soap *);

/* A NUL character reference read so far: after "&", after "&#", after "&#x", after one or more zeros. */
enum { OUTSIDE, AMPERSAND, HASH, HEX, ZEROS };

static int next_reference_state(int state, char byte)
{
    if (byte == '0' && state >= HASH)
        return ZEROS;
    if (state == AMPERSAND && byte == '#')
        return HASH;
    if (state == HASH && (byte == 'x' || byte == 'X'))
        return HEX;
    return byte == '&' ? AMPERSAND : OUTSIDE;
}

/* Whether the byte keeps the body valid UTF-8 (gSOAP reads an invalid byte as Latin-1 instead). */
static int is_utf8_byte(struct body_guard *guard, unsigned char byte)
{
    if (guard->continuations > 0) {
        if (byte < guard->low || byte > guard->high)
            return 0;
        guard->continuations--;
        guard->low = 0x80;
        guard->high = 0xBF;
        return 1;
    }
    guard->low = byte == 0xE0 ? 0xA0 : byte == 0xF0 ? 0x90 : 0x80;
    guard->high = byte == 0xED ? 0x9F : byte == 0xF4 ? 0x8F : 0xBF;
    guard->continuations = byte < 0x80 ? 0 : byte >= 0xC2 && byte <= 0xDF ? 1
                         : byte >= 0xE0 && byte <= 0xEF ? 2 : byte >= 0xF0 && byte <= 0xF4 ? 3 : -1;
    return guard->continuations >= 0;
}

static int is_refused(struct body_guard *guard, const char *bytes, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (!is_utf8_byte(guard, (unsigned char)bytes[i]))
            return 1;
        if (bytes[i] == '\0' || (bytes[i] == 'D' && guard->tail[0] == '<' && guard->tail[1] == '!'))
            return 1;
        /* gSOAP turns &#0; into a NUL and silently cuts the string there. */
        if (bytes[i] == ';' && guard->reference == ZEROS)
            return 1;
        guard->reference = next_reference_state(guard->reference, bytes[i]);
        guard->tail[0] = guard->tail[1];
        guard->tail[1] = bytes[i];
    }
    return 0;
}

static size_t guarded_receive(struct soap *soap, char *buffer, size_t length)
{
    struct body_guard *guard = soap->user;
    size_t count;
    if (!guard->active)
        return receive(soap, buffer, length);
    if (guard->bounded) {
        if (guard->remaining == 0) {
            /* An unfinished document. gSOAP answers no fault to a client that said Connection:
             * close when its body ends early (it ends as SOAP_POST); on a kept-alive connection it
             * does, and closes it after the fault all the same. */
            soap->keep_alive = 1;
            soap->error = SOAP_SYNTAX_ERROR;
            return 0;
        }
        if (length > guard->remaining)
            length = (size_t)guard->remaining;
    }
    count = receive(soap, buffer, length);
    guard->remaining -= count;
    if (is_refused(guard, buffer, count)) {
        soap->error = SOAP_SYNTAX_ERROR;
        return 0;
    }
    return count;
}

static char *wsdl_text, *quote_text;

/* A baseline's answer: the canned quote, with no SOAP engine between the request and it. */
static int canned_quote(struct soap *soap)
{
    size_t length;
    int posted = soap->status == SOAP_POST;
    if (posted != !strcmp(soap->path, CANNED_QUOTE_PATH))
        return soap->error = 405;
    if (posted && !soap_http_get_body(soap, &length))
        return soap->error;
    soap->http_content = "text/xml; charset=utf-8";
    if (soap_response(soap, SOAP_FILE) || soap_send(soap, quote_text) || soap_end_send(soap))
        return soap_closesock(soap);
    /* As the service's operations end: the connection closed unless it is kept alive. Without it an
     * HTTP/1.0 client (Apache Bench) told "Connection: close" waited for a close that never came. */
    soap_closesock(soap);
    return soap->error = SOAP_STOP;
}

/* After the headers: only the service's path is served (any other is a 404, but the baselines');
 * the body is guarded. */
static int guard_request(struct soap *soap)
{
    struct body_guard *guard = soap->user;
    size_t length = strlen(SERVICE_PATH), buffered;
    if (parse_http(soap))
        return soap->error;
    if (phases_log) {
        ((struct request *)soap->user)->phases.received = seconds_now();
        ((struct request *)soap->user)->phases.received_at = soap->alist;
    }
    if (!strcmp(soap->path, CANNED_QUOTE_PATH) || !strcmp(soap->path, STATIC_QUOTE_PATH))
        return canned_quote(soap);
    if (strncmp(soap->path, SERVICE_PATH, length) || (soap->path[length] && soap->path[length] != '?'))
        return soap->error = 404;
    if (soap->length > MAX_MESSAGE_BYTES) {
        soap->version = 1; /* no envelope read yet to say so: the service speaks SOAP 1.1 */
        return soap_sender_fault(soap, TOO_LARGE, NULL);
    }
    buffered = soap->buflen - soap->bufidx;
    guard->active = 1;
    guard->bounded = soap->length > 0;
    guard->remaining = soap->length > buffered ? soap->length - buffered : 0;
    guard->tail[0] = guard->tail[1] = 0;
    guard->reference = OUTSIDE;
    guard->continuations = 0;
    if (is_refused(guard, soap->buf + soap->bufidx, buffered))
        return soap->error = SOAP_SYNTAX_ERROR;
    return SOAP_OK;
}

/* A request served: its phases recorded; the next one on the connection starts with its headers. */
static int end_request(struct soap *soap)
{
    struct request *request = soap->user;
    request->guard.active = 0;
    record_phases(soap, &request->phases);
    return SOAP_OK;
}

/* No server name or version in the headers: "Server: lab", as Tomcat's. */
static int (*post_header)(struct soap *, const char *, const char *);

static int anonymous_header(struct soap *soap, const char *key, const char *value)
{
    return post_header(soap, key, key && !strcmp(key, "Server") ? "lab" : value);
}

/* GET answers only ?wsdl, with the contract's WSDL at this service's address (405 otherwise). */

static int http_get(struct soap *soap)
{
    const char *query = strchr(soap->path, '?');
    if (!query || strcasecmp(query, "?wsdl"))
        return soap_send_empty_response(soap, 405);
    soap->http_content = "text/xml; charset=utf-8";
    if (soap_response(soap, SOAP_FILE) || soap_send(soap, wsdl_text) || soap_end_send(soap))
        return soap_closesock(soap);
    return SOAP_OK;
}

/* The whole file, NUL-terminated, in memory the caller owns; NULL when it cannot be read. */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "r");
    char *text;
    long size;
    if (!file)
        return NULL;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    rewind(file);
    text = calloc(1, size + 1);
    if (text && fread(text, 1, size, file) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(file);
    return text;
}

static int load_wsdl(const char *path, const char *address)
{
    static const char placeholder[] = "http://127.0.0.1/PlayerService";
    char *text = read_file(path), *at = text ? strstr(text, placeholder) : NULL;
    if (!at) {
        free(text);
        return -1;
    }
    wsdl_text = malloc(strlen(text) + strlen(address) + 1);
    sprintf(wsdl_text, "%.*s%s%s", (int)(at - text), text, address, at + strlen(placeholder));
    free(text);
    return 0;
}

/* ---- the server ---------------------------------------------------------------------------- */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t filled, drained;
    struct soap **items;
    int head, count, size;
} queue = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0};

static void enqueue(struct soap *connection)
{
    pthread_mutex_lock(&queue.lock);
    while (queue.count == queue.size)
        pthread_cond_wait(&queue.drained, &queue.lock);
    queue.items[(queue.head + queue.count++) % queue.size] = connection;
    pthread_cond_signal(&queue.filled);
    pthread_mutex_unlock(&queue.lock);
}

static struct soap *dequeue(void)
{
    struct soap *connection;
    pthread_mutex_lock(&queue.lock);
    while (queue.count == 0)
        pthread_cond_wait(&queue.filled, &queue.lock);
    connection = queue.items[queue.head];
    queue.head = (queue.head + 1) % queue.size;
    queue.count--;
    pthread_cond_signal(&queue.drained);
    pthread_mutex_unlock(&queue.lock);
    return connection;
}

static void *worker(void *unused)
{
    (void)unused;
    mysql_thread_init();
    for (;;) {
        struct soap *connection = dequeue();
        struct request request = {0};
        connection->user = &request;
        soap_serve(connection);
        soap_destroy(connection);
        soap_end(connection);
        soap_free(connection);
    }
    return NULL;
}

/* An option's value; NULL when it is not given. */
static const char *optional(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return argv[i + 1];
    return NULL;
}

static const char *option(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return argv[i + 1];
    say("missing option %s", name);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *bind = option(argc, argv, "--bind"), *pidfile = option(argc, argv, "--pidfile");
    int port = atoi(option(argc, argv, "--port")), threads = atoi(option(argc, argv, "--threads"));
    int max_depth = atoi(option(argc, argv, "--max-depth"));
    int keep_alive_requests = atoi(option(argc, argv, "--keep-alive-requests"));
    char address[300];
    struct soap *soap;
    FILE *pid;

    pool.size = atoi(option(argc, argv, "--connections"));
    if (threads < 1 || pool.size < 1 || port < 1 || max_depth < 1 || keep_alive_requests < 1
        || read_settings(option(argc, argv, "--config"))) {
        say("bad options or settings file");
        return 2;
    }
    snprintf(address, sizeof address, "http://%s:%d" SERVICE_PATH, bind, port);
    if (load_wsdl(option(argc, argv, "--wsdl"), address)) {
        say("cannot read the WSDL");
        return 2;
    }
    quote_text = read_file(option(argc, argv, "--quote-response"));
    if (!quote_text) {
        say("cannot read the canned quote response");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    mysql_library_init(0, NULL, NULL);
    pool.idle = calloc(pool.size, sizeof *pool.idle);
    pool.idle_count = pool.size;
    queue.size = threads;
    queue.items = calloc(queue.size, sizeof *queue.items);

    /* SOAP_XML_TREE: a document/literal service has no multi-reference (id/href) data, and with gSOAP's
     * id-ref bookkeeping on, soap_update_pointers took 60 % of the server's CPU in echoInts of 5,000
     * (perf, Intel Xeon, 2026-11-27; docs/soap-engines.md). */
    soap = soap_new1(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE | SOAP_XML_STRICT | SOAP_XML_TREE);
    soap->bind_flags = SO_REUSEADDR;
    soap->recv_maxlength = MAX_MESSAGE_BYTES;
    soap->maxlength = MAX_MESSAGE_BYTES;
    soap->send_timeout = soap->recv_timeout = 60;
    soap->max_keep_alive = keep_alive_requests;
    soap->fseterror = contract_fault;
    soap->fget = http_get;
    parse_http = soap->fparse;
    soap->fparse = guard_request;
    receive = soap->frecv;
    soap->frecv = guarded_receive;
    soap->fserveloop = end_request;
    post_header = soap->fposthdr;
    soap->fposthdr = anonymous_header;
    soap->maxlevel = (unsigned)max_depth;
    /* gSOAP polls the socket before it sends a fault and gives up when the client has shut down
     * its sending side (which HTTP/1.1 allows): such a client got no answer at all. Without the
     * poll, the fault is written as any answer is, and a client that is really gone fails the write. */
    soap->fpoll = NULL;
    if (optional(argc, argv, "--phases-log")) {
        phases_log = fopen(optional(argc, argv, "--phases-log"), "a");
        if (!phases_log) {
            say("cannot open the phases log");
            return 2;
        }
        final_receive = soap->fpreparefinalrecv;
        soap->fpreparefinalrecv = logic_starts;
        initial_send = soap->fprepareinitsend;
        soap->fprepareinitsend = logic_ends;
    }
    if (!soap_valid_socket(soap_bind(soap, bind, port, atoi(option(argc, argv, "--backlog"))))) {
        soap_print_fault(soap, stderr);
        return 1;
    }
    pid = fopen(pidfile, "w");
    if (!pid)
        return 1;
    fprintf(pid, "%d\n", (int)getpid());
    fclose(pid);
    for (int i = 0; i < threads; i++) {
        pthread_t thread;
        pthread_create(&thread, NULL, worker, NULL);
        pthread_detach(thread);
    }
    {
        pthread_t thread;
        pthread_create(&thread, NULL, pool_log_writer, (void *)option(argc, argv, "--pool-log"));
        pthread_detach(thread);
    }
    say("serving %s with %d threads and %d database connections", address, threads, pool.size);
    for (;;) {
        if (!soap_valid_socket(soap_accept(soap))) {
            if (soap->errnum)
                soap_print_fault(soap, stderr);
            continue;
        }
        struct soap *connection = soap_copy(soap);
        if (connection)
            enqueue(connection);
        else
            soap_force_closesock(soap);
    }
}
