// The contract's HTML pages (contract/README.md) served by Node.js's own http module from a pool of
// MariaDB connections, one process, one event loop. Every setting comes from the lab
// (stack/runtime_servers.py); each is written down, with why, in docs/apps.md.
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, STATUS_CODES } from 'node:http';
import { parseArgs } from 'node:util';
import { errorPage, InvalidRequest, page, parseQuery, versionedColumns, workloads, writes } from './contract.js';
import { driverNames, openPool } from './database.js';
import { PoolWatch } from './pool-watch.js';

const { values: options } = parseArgs({
  options: {
    bind: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    config: { type: 'string' },
    pidfile: { type: 'string' },
    'pool-size': { type: 'string', default: '5' },
    driver: { type: 'string', default: 'mariadb' },
    'rows-as-array': { type: 'boolean', default: false },
    'idle-timeout': { type: 'string', default: '5' },
    'keep-alive-requests': { type: 'string', default: '100' },
    'pool-log': { type: 'string' },
    'static-baseline': { type: 'string' },
    version: { type: 'boolean', default: false },
  },
});

// Node.js's and the drivers' versions, from their own packages.
function versions() {
  const version = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url))).version;
  return `Node.js ${process.version}, mariadb ${version('mariadb')}, mysql2 ${version('mysql2')}`;
}

// The lab's key=value file, the one every app reads.
function readProperties(path) {
  const values = {};
  for (const line of readFileSync(path, 'utf8').split('\n').map((text) => text.trim())) {
    const separator = line.indexOf('=');
    if (separator > 0 && !line.startsWith('#')) values[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return values;
}

// The single-row page of the registry's default id (100), written by the page's own code with no
// database (contract/README.md, "Baselines").
const baselineRow = [100, 'adamswi02', 'Willie', 'Adams', 1972, 10, 8, 215, 79, 'R', 'R'];

// The whole page at once, so that Node.js sends its Content-Length (writeHead would send the head
// before the body's length is known, and chunk it).
function answer(response, status, body, headers = {}) {
  response.statusCode = status;
  response.setHeaders(new Map(Object.entries({ 'Content-Type': 'text/html; charset=utf-8', ...headers })));
  response.end(body);
}

function refuse(response, error) {
  answer(response, error.status, errorPage(error.status, STATUS_CODES[error.status], error.message));
}

function serve({ pool, watch, staticBaseline }) {
  // One workload's page: its statements run by `run` on a connection of the pool, which gives the body.
  async function workload(title, run, response, request) {
    let connection;
    try {
      connection = await watch.connection(pool);
      answer(response, 200, await run(connection));
    } catch (error) {
      if (error instanceof InvalidRequest) {
        refuse(response, error);
      } else if (!request.socket.destroyed) { // a client gone has no one to answer
        console.error(`${title}: database error: ${error.message}`);
        refuse(response, new InvalidRequest(503, 'database unavailable'));
      }
    } finally {
      if (connection) watch.release(connection);
    }
  }

  // A read: its rows, none for a single row's id being the contract's 404.
  const read = (title, { sql, argument }) => async (connection) => {
    const rows = await connection.rows(sql, argument);
    if (rows.length === 0 && title === 'single') throw new InvalidRequest(404, 'no player with this id');
    return page(title, rows);
  };
  // Each row's update, in autocommit and never retried, then the row read back on the same connection
  // (TechEmpower's rule: a transaction holds one read and one write at most); a row no id has is
  // skipped, and the update page's one row missing is the contract's 404.
  const update = (title, rows) => async (connection) => {
    const raised = [];
    for (const { raise, read: readBack } of rows) {
      if (await connection.changed(raise.sql, raise.argument) === 0) continue;
      raised.push(...await connection.rows(readBack.sql, readBack.argument));
    }
    if (raised.length === 0 && title === 'update') throw new InvalidRequest(404, 'no player with this id');
    return page(title, raised, versionedColumns);
  };

  async function route(request, response) {
    const mark = request.url.indexOf('?');
    const [path, rawQuery] = mark < 0 ? [request.url, ''] : [request.url.slice(0, mark), request.url.slice(mark + 1)];
    const name = path.slice(1);
    const writing = Object.hasOwn(writes, name);
    const allowed = writing ? ['POST'] : ['GET', 'HEAD'];
    if (!allowed.includes(request.method)) {
      return answer(response, 405, errorPage(405, STATUS_CODES[405], 'method not allowed'), { Allow: allowed.join(', ') });
    }
    if (path === '/baseline') return answer(response, 200, page('single', [baselineRow]));
    if (path === '/baseline.html') return answer(response, 200, await readFile(staticBaseline));
    const check = writing ? writes[name] : Object.hasOwn(workloads, name) ? workloads[name] : undefined;
    if (!check) return refuse(response, new InvalidRequest(404, 'no such page'));
    let statements;
    try {
      statements = check(parseQuery(rawQuery));
    } catch (error) {
      return refuse(response, error);
    }
    return workload(name, (writing ? update : read)(name, statements), response, request);
  }

  // Whatever fails unforeseen is logged and answered without its stack, and the server goes on.
  return (request, response) => route(request, response).catch((error) => {
    console.error(`${request.url}: ${error.stack}`);
    if (!response.headersSent) answer(response, 500, errorPage(500, STATUS_CODES[500], 'internal error'));
  });
}

function main() {
  if (options.version) return console.log(versions());
  if (!driverNames.includes(options.driver)) throw new Error(`--driver must be one of ${driverNames.join(', ')}`);
  const config = readProperties(options.config);
  const watch = new PoolWatch(Number(config['pool.timeoutMs']));
  const size = Number(options['pool-size']);
  const pool = openPool(options.driver, config, { size, timeout: watch.timeout, rowsAsArray: options['rows-as-array'] });
  const server = createServer(serve({ pool, watch, staticBaseline: options['static-baseline'] }));
  server.keepAliveTimeout = Number(options['idle-timeout']) * 1000;
  // Apache's MaxKeepAliveRequests counts the requests after a connection's first.
  server.maxRequestsPerSocket = Number(options['keep-alive-requests']) + 1;
  server.listen(Number(options.port), options.bind, async () => {
    await writeFile(options.pidfile, `${process.pid}\n`);
    if (options['pool-log']) watch.record(options['pool-log']);
    console.log(`listening on ${options.bind}:${options.port}, ${size} database connections, driver ${options.driver}, ` +
      `rowsAsArray=${options['rows-as-array']}, ${versions()}`);
  });
  // Stopping: no new connections, the idle ones closed, the busy ones finished, then the pool.
  const stop = () => {
    server.close(async () => {
      await pool.end();
      await rm(options.pidfile, { force: true });
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main();
