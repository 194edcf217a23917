import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';

test('defaults: embedded database in ./data, port 3000', () => {
  const config = loadConfig({});
  expect(config.database).toEqual({ kind: 'embedded', dataDir: path.resolve('./data') });
  expect(config.port).toBe(3000);
  expect(Object.isFrozen(config)).toBe(true);
});

test('DATABASE_URL selects a PostgreSQL server', () => {
  expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'server', url: 'postgres://u@h:5432/db' });
});

test.each([
  ['PORT', 'eighty'],
  ['PORT', '70000'],
  ['DATABASE_URL', 'mysql://x'],
  ['NODE_ENV', 'staging'],
  ['DB_POOL_MAX', '0'],
])('an invalid %s=%s is refused with a message naming it', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
});
