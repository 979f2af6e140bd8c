// Real MySQL clients against the real server binary: the mariadb CLI, PyMySQL, MySQLdb and mysql2.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCommand, PYTHON, run, startQuarry, type QuarryProcess } from './mysql-server.js';

const HAS_MARIADB = hasCommand('mariadb', ['--version']);
const HAS_PYMYSQL = hasCommand(PYTHON, ['-c', 'import pymysql']);
const HAS_MYSQLDB = hasCommand(PYTHON, ['-c', 'import MySQLdb']);

let q: QuarryProcess;
beforeAll(async () => {
  q = await startQuarry();
  const c = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
  await c.query('CREATE TABLE m (title text, price float, tags multi)');
  await c.query("INSERT INTO m (id, title, price, tags) VALUES (1, 'hello world', 1.5, (2,1)), (2, 'second doc', 2, ())");
  await c.end();
});
afterAll(async () => {
  await q?.stop();
});

const mariadb = (...args: string[]) => run('mariadb', ['-h127.0.0.1', `-P${q.mysqlPort}`, '-uroot', ...args]);

describe.skipIf(!HAS_MARIADB)('mariadb command-line client', () => {
  it('prints SELECT results in batch mode, floats with six decimals', async () => {
    const r = await mariadb('--batch', '-e', 'SELECT id, title, price, tags FROM m ORDER BY id ASC');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('id\ttitle\tprice\ttags\n1\thello world\t1.500000\t1,2\n2\tsecond doc\t2.000000\t\n');
  });

  it('reports affected rows and errors as it does against Manticore', async () => {
    const r = await mariadb('-vvv', '-e', "INSERT INTO m (id, title) VALUES (3, 'c'), (4, 'd')");
    expect(r.stdout).toMatch(/Query OK, 2 rows affected/);
    const e = await mariadb('--batch', '-e', 'SELEKT 1');
    expect(e.status).toBe(1);
    // the client echoes the failing statement before the error line
    expect(e.stderr).toMatch(/^ERROR 1064 \(42000\) at line 1: P02: syntax error, unexpected identifier near 'SELEKT 1'$/m);
  });

  it('runs an interactive session from stdin, with status (COM_STATISTICS)', async () => {
    const r = await run('mariadb', ['-h127.0.0.1', `-P${q.mysqlPort}`, '-uroot', '-t'], 'SHOW TABLES;\nstatus\nSELECT COUNT(*) FROM m;\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\| m +\| rt +\|/);
    expect(r.stdout).toMatch(/Uptime:/);
    expect(r.stdout).toMatch(/\| +4 \|/);
  });
});

const PY_SCRIPT = `
import sys, json
driver = sys.argv[2]
if driver == 'pymysql':
    import pymysql as db
else:
    import MySQLdb as db
port = int(sys.argv[1])
c = db.connect(host='127.0.0.1', port=port, user='root', password='')
out = {}
cur = c.cursor()
cur.execute("CREATE TABLE py_" + driver + " (title text, n uint)")
cur.execute("INSERT INTO py_" + driver + " (id, title, n) VALUES (%s, %s, %s)", (1, "it's", 5))
out['insert'] = cur.rowcount
c.commit()
cur.execute("SELECT id, title, n FROM py_" + driver)
out['select'] = [list(r) for r in cur.fetchall()]
cur.execute("BEGIN")
cur.execute("INSERT INTO py_" + driver + " (id, title) VALUES (2, 'rolled back')")
c.rollback()
cur.execute("BEGIN")
cur.execute("INSERT INTO py_" + driver + " (id, title) VALUES (3, 'committed')")
c.commit()
cur.execute("SELECT id FROM py_" + driver + " ORDER BY id ASC")
out['after_tx'] = [r[0] for r in cur.fetchall()]
try:
    cur.execute("SELECT * FROM nosuch")
except Exception as e:
    out['error'] = [type(e).__name__, e.args[0], e.args[1]]
print(json.dumps(out))
`;

async function python(driver: string): Promise<unknown> {
  const r = await run(PYTHON, ['-c', PY_SCRIPT, String(q.mysqlPort), driver]);
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const EXPECTED_PY = {
  insert: 1,
  select: [[1, "it's", 5]],
  after_tx: [1, 3],
  error: ['ProgrammingError', 1064, "unknown local table(s) 'nosuch' in search request"],
};

describe('Python clients', () => {
  it.skipIf(!HAS_PYMYSQL)('PyMySQL: create, insert, select, transaction, error', async () => {
    expect(await python('pymysql')).toEqual(EXPECTED_PY);
  });

  it.skipIf(!HAS_MYSQLDB)('MySQLdb (libmariadb): the same', async () => {
    expect(await python('mysqldb')).toEqual(EXPECTED_PY);
  });
});

describe('mysql2', () => {
  it('serves a pool of 50 connections querying in parallel', async () => {
    const pool = mysql.createPool({ host: '127.0.0.1', port: q.mysqlPort, user: 'root', connectionLimit: 50 });
    try {
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
        pool.query(`SELECT id, ${i} AS k FROM m WHERE id = ${1 + (i % 2)}`).then(([rows]) => rows)));
      results.forEach((rows, i) => expect(rows).toEqual([{ id: 1 + (i % 2), k: i }]));
      const [ins] = await pool.execute('INSERT INTO m (id, title, price) VALUES (?, ?, ?)', [50, 'from execute', 0.25]);
      expect(ins).toMatchObject({ affectedRows: 1 });
      const [rows] = await pool.execute('SELECT title, price FROM m WHERE id = ?', [50]);
      expect(rows).toEqual([{ title: 'from execute', price: 0.25 }]);
    } finally {
      await pool.end();
    }
  });
});
