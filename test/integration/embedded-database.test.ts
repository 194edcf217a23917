import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { openDatabase } from '../../src/db/database';
import { DataDirInUseError } from '../../src/db/embedded/embedded-postgres';
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
