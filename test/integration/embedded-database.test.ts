import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { openDatabase } from '../../src/db/database';
import pg from 'pg';
import { DataDirInUseError, startEmbeddedPostgres } from '../../src/db/embedded/embedded-postgres';
import { migrations } from '../../src/db/migrations';

/** The embedded default: data in DATA_DIR survive a restart, and one process owns the directory. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-embedded-'));
const config = loadConfig({ DATA_DIR: dataDir });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('data survive a restart, and a second opener gets a clear error instead of corrupting it', async () => {
  const first = await openDatabase(config);
  expect(first.kind).toBe('embedded');
  await first.orm.em.getConnection().execute("insert into accounts (name) values ('survivor')");

  await expect(openDatabase(config)).rejects.toThrow(DataDirInUseError);
  await expect(openDatabase(config)).rejects.toThrow(/in use by another timetrack process/);

  await first.close();
  expect(fs.existsSync(path.join(dataDir, 'timetrack.lock'))).toBe(false);

  const second = await openDatabase(config);
  try {
    const rows = await second.orm.em.getConnection().execute('select name from accounts');
    expect(rows).toEqual([{ name: 'survivor' }]);
    // Migrations are recorded once, not re-applied.
    const applied = await second.orm.em
      .getConnection()
      .execute('select count(*)::int as n from mikro_orm_migrations');
    expect(applied[0].n).toBe(migrations.length);
  } finally {
    await second.close();
  }
});

/**
 * The embedded server serves one connection at a time. A pool that replaces a dead connection
 * opens the next one before the server has seen the first close; the new one used to be refused
 * ("Too many connections", seen as a 503 right after an outage ended). It now waits for the slot.
 */
test('a second connection waits for the one slot instead of being refused', async () => {
  const embedded = await startEmbeddedPostgres('memory');
  const first = new pg.Client({ connectionString: embedded.url });
  const second = new pg.Client({ connectionString: embedded.url });
  try {
    await first.connect();
    expect((await first.query('select 1 as n')).rows).toEqual([{ n: 1 }]);
    let secondReady = false;
    const connecting = second.connect().then(() => (secondReady = true));
    // Still waiting while the first holds the slot: a query of the first goes round the server.
    await first.query('select 1');
    expect(secondReady).toBe(false);
    await first.end();
    await connecting;
    expect((await second.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
  } finally {
    await second.end().catch(() => {});
    await embedded.stop();
  }
});
