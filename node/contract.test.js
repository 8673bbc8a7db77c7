import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columns, errorPage, InvalidRequest, page, parseQuery, versionedColumns, workloads, writes } from './contract.js';

const check = (workload, raw) => workloads[workload](parseQuery(raw));

function refusedWith(workload, raw, message) {
  assert.throws(() => check(workload, raw), (error) => error instanceof InvalidRequest &&
    error.status === 400 && error.message === message);
}

test('a query string is split on & alone and decoded, + as a space', () => {
  const parameters = parseQuery('name=O%27Br+ien;x&engine=innodb&&id=1&id=2');
  assert.deepEqual(parameters.get('name'), ["O'Br ien;x"]);
  assert.deepEqual(parameters.get('id'), ['1', '2']);
  assert.deepEqual(parameters.get('engine'), ['innodb']);
});

test('a value that does not decode reads as U+FFFD and is refused as a name', () => {
  assert.deepEqual(parseQuery('name=%FF').get('name'), ['\uFFFD']);
  refusedWith('large', 'name=%FF', 'name must be at most 64 characters of text');
  refusedWith('large', 'name=%zz', 'name must be at most 64 characters of text');
});

test('a malformed escape anywhere leaves every known parameter undecodable, so the first check answers', () => {
  for (const raw of ['id=1&bad=%zz', 'name=%', 'id=1&%4=x', 'count=100%']) {
    const parameters = parseQuery(raw);
    for (const name of ['id', 'name', 'count', 'engine']) assert.deepEqual(parameters.get(name), ['\uFFFD'], raw);
  }
  refusedWith('single', 'id=1&engine=%ZZ', 'id must be an integer from 1 to 2147483647');
  refusedWith('rows', 'count=1&unknown=%', 'count must be an integer from 1 to 16000');
});

test('each workload checks its parameter, then the engine', () => {
  assert.deepEqual(check('single', 'id=2147483647&engine=innodb'),
    { sql: 'SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws FROM people_innodb WHERE id = ?', argument: 2147483647 });
  refusedWith('single', 'id=2147483648', 'id must be an integer from 1 to 2147483647');
  refusedWith('single', 'id=01', 'id must be an integer from 1 to 2147483647');
  refusedWith('single', 'engine=nope', 'id must be an integer from 1 to 2147483647');
  refusedWith('single', 'id=1&engine=MyISAM', 'engine must be myisam or innodb');
  refusedWith('rows', 'count=16001', 'count must be an integer from 1 to 16000');
  assert.equal(check('rows', 'count=16000').argument, 16000);
  assert.match(check('rows', 'count=1').sql, /FROM people_myisam ORDER BY id LIMIT \?$/);
  assert.equal(check('large', '').argument, '%');
  refusedWith('large', 'name=a&name=b', 'parameter name given more than once');
});

test('a name is at most 64 characters, counted as characters, none a control character', () => {
  assert.equal(check('large', `name=${'é'.repeat(64)}`).argument, 'é'.repeat(64));
  refusedWith('large', `name=${'é'.repeat(65)}`, 'name must be at most 64 characters of text');
  refusedWith('large', 'name=a%00', 'name must be at most 64 characters of text');
  refusedWith('large', 'name=a%7F', 'name must be at most 64 characters of text');
  refusedWith('large', 'name=%EF%BF%BD', 'name must be at most 64 characters of text');
});

test('the page escapes as PHP htmlspecialchars(ENT_QUOTES) does', () => {
  const written = page('single', [[1, `O'B<&>"`]]);
  assert.ok(written.includes('<tr><td>1</td><td>O&#039;B&lt;&amp;&gt;&quot;</td></tr>\n'), written);
  assert.ok(written.startsWith('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>single</title>'));
  assert.ok(written.endsWith('</table>\n</body></html>\n'));
  // An object row, as the driver gives it by default, is written in the columns' order, not its keys'.
  const player = Object.fromEntries([...columns].reverse().map((name, at) => [name, at]));
  const cells = columns.map((name) => `<td>${player[name]}</td>`).join('');
  assert.ok(page('single', [player]).includes(`<tr>${cells}</tr>\n`));
  assert.equal(errorPage(503, 'Service Unavailable', 'database unavailable'),
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>503 Service Unavailable</title></head>' +
    '<body><p>database unavailable</p></body></html>\n');
});

test('the update checks as the single page does, raises the version, then reads the row with it', () => {
  assert.throws(() => writes.update(parseQuery('id=0&engine=innodb')), (error) => error.status === 400 &&
    error.message === 'id must be an integer from 1 to 2147483647');
  const [{ raise, read }] = writes.update(parseQuery('id=7&engine=innodb'));
  assert.deepEqual(raise, { sql: 'UPDATE people_innodb SET ver = ver + 1 WHERE id = ?', argument: 7 });
  assert.match(read.sql, /, throws, ver FROM people_innodb WHERE id = \?$/);
  assert.equal(read.argument, 7);
  const row = Object.fromEntries(versionedColumns.map((name, at) => [name, at]));
  assert.ok(page('update', [row], versionedColumns).includes('<th>throws</th><th>ver</th></tr>\n'));
  assert.ok(page('update', [row], versionedColumns).includes('<td>10</td><td>11</td></tr>\n'));
  assert.equal(columns.length, 11);
});

test('the updates check their count, then the engine, and draw that many distinct ids of the table', () => {
  for (const queries of ['', '0', '01', '21', '99', '1.5', ' 1', 'abc']) {
    assert.throws(() => writes.updates(parseQuery(`queries=${queries}`)), (error) => error.status === 400 &&
      error.message === 'queries must be an integer from 1 to 20', queries);
  }
  assert.throws(() => writes.updates(parseQuery('engine=memory')), (error) => error.message.startsWith('queries'));
  assert.throws(() => writes.updates(parseQuery('queries=20&engine=memory')),
    (error) => error.message === 'engine must be myisam or innodb');
  for (let draw = 0; draw < 1000; draw += 1) {
    const ids = writes.updates(parseQuery('queries=20&engine=innodb')).map(({ raise }) => raise.argument);
    assert.equal(new Set(ids).size, 20, ids);
    assert.ok(ids.every((id) => Number.isInteger(id) && id >= 1 && id <= 16000), ids);
  }
  const [{ raise, read }] = writes.updates(parseQuery('queries=1'));
  assert.match(raise.sql, /^UPDATE people_myisam SET ver = ver \+ 1 WHERE id = \?$/);
  assert.equal(read.argument, raise.argument);
});
