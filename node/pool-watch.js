// The pool's use, recorded as the other pooled servers record theirs (read by
// harness/measure/pool_log.py): for each second the pool was used, the most requests waiting for a
// connection and the most connections in use.
import { appendFile } from 'node:fs/promises';

export class PoolWatch {
  waiting = 0;
  active = 0;
  mostWaiting = 0;
  mostActive = 0;

  constructor(timeout) {
    this.timeout = timeout;
  }

  change(waiting, active) {
    this.waiting += waiting;
    this.active += active;
    this.mostWaiting = Math.max(this.mostWaiting, this.waiting);
    this.mostActive = Math.max(this.mostActive, this.active);
  }

  // A connection from the pool, waited for at most this.timeout ms (HikariCP's connectionTimeout:
  // POOL_TIMEOUT_MS); one that comes after the request gave up goes straight back.
  async connection(pool) {
    this.change(1, 0);
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no connection within ${this.timeout} ms`)), this.timeout);
    });
    const taken = pool.connection();
    try {
      const connection = await Promise.race([taken, late]);
      this.change(-1, 1);
      return connection;
    } catch (error) {
      this.change(-1, 0);
      taken.then((connection) => connection.release(), () => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  release(connection) {
    connection.release();
    this.change(0, -1);
  }

  // The most of each since the last call, which then starts from what is now.
  second() {
    const reading = [this.mostWaiting, this.mostActive];
    this.mostWaiting = this.waiting;
    this.mostActive = this.active;
    return reading;
  }

  // Each second the pool was used, a line: epoch second, most waiting, most in use.
  record(path) {
    return setInterval(() => {
      const [waiting, active] = this.second();
      if (waiting > 0 || active > 0) {
        const second = Math.floor(Date.now() / 1000) - 1;
        appendFile(path, `${second}\t${waiting}\t${active}\n`).catch((error) => console.error(`pool log: ${error.message}`));
      }
    }, 1000).unref();
  }
}
