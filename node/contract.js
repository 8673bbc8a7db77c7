// The rules of contract/README.md: the columns, the engine-to-table map, the workloads' queries, how
// their parameters are checked, and the HTML every app writes byte for byte.

export const columns = ['id', 'playerID', 'nameFirst', 'nameLast', 'birthYear', 'birthMonth',
  'birthDay', 'weight', 'height', 'bats', 'throws'];
// The update page's: the row's version last (no read page shows it).
export const versionedColumns = [...columns, 'ver'];

const maxNameLength = 64;
const maxRowCount = 16000;
// The most rows an updates request raises: TechEmpower's top level of its updates test.
const maxUpdates = 20;
const validId = /^[1-9][0-9]{0,9}$/;
const validCount = /^[1-9][0-9]{0,4}$/;
const validQueries = /^[1-9][0-9]?$/;
const selectFrom = `SELECT ${columns.join(', ')} FROM `;

// An answer of the contract's validation table: its status and message.
export class InvalidRequest extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const badRequest = (message) => new InvalidRequest(400, message);

function decode(text) {
  return decodeURIComponent(text.replaceAll('+', ' '));
}

// A '%' that does not begin an escape of two hex digits (RFC 3986, section 2.1).
const malformedEscape = /%(?![0-9A-Fa-f]{2})/;
const knownParameters = ['id', 'name', 'count', 'queries', 'engine'];

// A raw query string's values by name. It is split on '&' alone, as PHP and Tomcat do. One whose
// percent-encoding is malformed anywhere does not decode: every known parameter reads as U+FFFD, so
// that the contract's first check refuses it, as Tomcat 11 refuses such a query string whole; a value
// whose escapes are not UTF-8 reads as U+FFFD, so that the name check refuses it.
export function parseQuery(raw) {
  const values = new Map();
  if (malformedEscape.test(raw)) {
    for (const name of knownParameters) values.set(name, ['\uFFFD']);
    return values;
  }
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const [rawKey, rawValue] = separator < 0 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
    let key;
    try {
      key = decode(rawKey);
    } catch {
      continue;
    }
    let value;
    try {
      value = decode(rawValue);
    } catch {
      value = '\uFFFD';
    }
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return values;
}

// A known parameter's one value (undefined when absent); given more than once it is refused.
function one(parameters, name) {
  const values = parameters.get(name) ?? [];
  if (values.length > 1) throw badRequest(`parameter ${name} given more than once`);
  return values[0];
}

// The fixed table for an engine name (myisam when absent): the name never reaches SQL.
function table(parameters) {
  const engine = one(parameters, 'engine');
  if (engine === undefined || engine === 'myisam') return 'people_myisam';
  if (engine === 'innodb') return 'people_innodb';
  throw badRequest('engine must be myisam or innodb');
}

// Valid text of at most 64 characters, none a control character or U+FFFD.
function isText(name) {
  const characters = [...name];
  return characters.length <= maxNameLength && !/[\u0000-\u001f\u007f\uFFFD]/u.test(name);
}

// The single and update pages' parameters: the id, then the engine's table.
function idAndTable(parameters) {
  const id = one(parameters, 'id');
  if (id === undefined || !validId.test(id) || Number(id) > 2147483647) {
    throw badRequest('id must be an integer from 1 to 2147483647');
  }
  return [Number(id), table(parameters)];
}

// Each read workload's query, its parameters checked in the contract's order (then the engine).
export const workloads = {
  single(parameters) {
    const [id, from] = idAndTable(parameters);
    return { sql: `${selectFrom}${from} WHERE id = ?`, argument: id };
  },
  large(parameters) {
    const name = one(parameters, 'name') ?? '%';
    if (!isText(name)) throw badRequest('name must be at most 64 characters of text');
    return { sql: `${selectFrom}${table(parameters)} WHERE nameLast LIKE ? ORDER BY id`, argument: name };
  },
  rows(parameters) {
    const count = one(parameters, 'count');
    if (count === undefined || !validCount.test(count) || Number(count) > maxRowCount) {
      throw badRequest(`count must be an integer from 1 to ${maxRowCount}`);
    }
    return { sql: `${selectFrom}${table(parameters)} ORDER BY id LIMIT ?`, argument: Number(count) };
  },
};

// A row's version raised, then the row read back with it.
const versionStatements = (from, id) => ({
  raise: { sql: `UPDATE ${from} SET ver = ver + 1 WHERE id = ?`, argument: id },
  read: { sql: `SELECT ${versionedColumns.join(', ')} FROM ${from} WHERE id = ?`, argument: id },
});

// Distinct ids, each uniform over the table's (Math.random, as TechEmpower's nodejs draws its own).
function drawnIds(count) {
  const ids = new Set();
  while (ids.size < count) ids.add(Math.floor(Math.random() * maxRowCount) + 1);
  return [...ids];
}

// Each write workload's rows, each one's statements: the update, then the read of the row it raised.
export const writes = {
  update(parameters) {
    const [id, from] = idAndTable(parameters);
    return [versionStatements(from, id)];
  },
  updates(parameters) {
    const count = one(parameters, 'queries');
    if (count === undefined || !validQueries.test(count) || Number(count) > maxUpdates) {
      throw badRequest(`queries must be an integer from 1 to ${maxUpdates}`);
    }
    const from = table(parameters);
    return drawnIds(Number(count)).map((id) => versionStatements(from, id));
  },
};

// PHP's htmlspecialchars(ENT_QUOTES), the contract's escaping.
const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
const escape = (value) => String(value).replace(/[&<>"']/g, (character) => entities[character]);

const headerRow = (shown) => `<tr><th>${shown.join('</th><th>')}</th></tr>\n`;

// A row's line, the row as the driver gives it: an array of its values in the columns' order, or
// an object keyed by column name (read by name, as TechEmpower's nodejs reads its fortunes).
function rowLine(row, shown) {
  let line = '<tr>';
  if (Array.isArray(row)) {
    for (const value of row) line += `<td>${escape(value)}</td>`;
  } else {
    for (const name of shown) line += `<td>${escape(row[name])}</td>`;
  }
  return `${line}</tr>\n`;
}

// The page of a workload's rows, in its columns (the read pages': columns).
export function page(title, rows, shown = columns) {
  let body = '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>' + title +
    '</title></head><body>\n<table>\n' + headerRow(shown);
  for (const row of rows) body += rowLine(row, shown);
  return `${body}</table>\n</body></html>\n`;
}

export function errorPage(status, reason, message) {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${status} ${reason}</title></head>` +
    `<body><p>${escape(message)}</p></body></html>\n`;
}
