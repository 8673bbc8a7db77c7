// The two drivers behind one shape: a pool whose connections run a query and give back its rows
// (or an UPDATE's affected rows) as the driver gives them (objects keyed by column name, or arrays with rowsAsArray). Both run the query as text with its argument escaped in
// (each driver's query(); one round trip, no prepared statement), so that only the driver differs.
import mariadb from 'mariadb';
import mysql from 'mysql2/promise';
// rowsAsArray: the driver hands over each row as an array, not an object keyed by column name (the
// mariadb maintainer's advice for speed, mariadb-connector-nodejs#222).
const drivers = {
  mariadb: {
    createPool: ({ timeout, ...options }) =>
      mariadb.createPool({ ...options, minimumIdle: options.connectionLimit, acquireTimeout: timeout }),
    rowsOf: (result) => result,
    changedOf: (result) => result.affectedRows,
  },
  mysql2: {
    // mysql2 has no acquire timeout: a request waiting past it is answered by the pool watch.
    createPool: ({ timeout, ...options }) => mysql.createPool({ ...options, maxIdle: options.connectionLimit }),
    rowsOf: ([rows]) => rows,
    changedOf: ([header]) => header.affectedRows,
  },
};

export const driverNames = Object.keys(drivers);

// A pool of size connections, every one kept open (idle = open, as the Go and Java pools are); a
// request waits at most timeout ms for one.
export function openPool(driverName, config, { size, timeout, rowsAsArray }) {
  const driver = drivers[driverName];
  const pool = driver.createPool({
    host: config['db.host'],
    port: Number(config['db.port']),
    user: config['db.user'],
    password: config['db.password'],
    database: config['db.name'],
    connectionLimit: size,
    timeout,
  });
  return {
    async connection() {
      const connection = await pool.getConnection();
      return {
        async rows(sql, argument) {
          return driver.rowsOf(await connection.query({ sql, rowsAsArray }, [argument]));
        },
        // An UPDATE's affected rows: 0 when no row has the id (ver + 1 changes every row it finds).
        async changed(sql, argument) {
          return driver.changedOf(await connection.query(sql, [argument]));
        },
        release: () => connection.release(),
      };
    },
    end: () => pool.end(),
  };
}
