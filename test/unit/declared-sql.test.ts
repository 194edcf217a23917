import { MikroORM } from '@mikro-orm/core';
import { declaredSql } from '../../src/db/declared-sql';
import { ormOptions } from '../../src/db/orm-options';
import { Project } from '../../src/modules/projects';
import { Shift } from '../../src/modules/shifts';

/** Each declared field's SQL form, from MikroORM's metadata (discovered without a connection). */
let orm: MikroORM;

beforeAll(async () => {
  orm = await MikroORM.init({
    ...ormOptions({
      clientUrl: 'postgres://nobody@127.0.0.1:1/none',
      poolMax: 1,
      statementTimeoutMs: 1_000,
      acquireTimeoutMs: 1_000,
      connectTimeoutMs: 1_000,
    }),
    connect: false,
    ensureDatabase: false,
  });
});

afterAll(() => orm.close());

test('a column, a reference’s integer id, and its uuid from the referenced row of the account', () => {
  const sql = declaredSql(orm.getMetadata(), Project, 'p', 7);
  expect(sql.name).toBe('"p"."name"');
  expect(sql.legacyId).toBe('"p"."id"');
  expect(sql.id).toBe('"p"."uuid"');
  expect(sql.code).toBe('"p"."code"');
  expect(sql.companyLegacyId).toBe('"p"."company_id"');
  // The referenced row is read in the account by a constant, which Citus routes to one worker.
  expect(sql.companyId).toBe(
    '(select "uuid" from "companies" where "id" = "p"."company_id" and "account_id" = 7)',
  );
  expect(declaredSql(orm.getMetadata(), Shift, 's', 7).start).toBe('"s"."start"');
});

test('every declared field of every entity has one', () => {
  const tables = Object.values(orm.getMetadata().getAll()).filter((meta) => !meta.abstract);
  expect(tables.length).toBeGreaterThan(10);
  for (const meta of tables) {
    // MikroORM types an entity's class as a plain function; declaredSql takes a constructor.
    const sql = declaredSql(orm.getMetadata(), meta.class as never, 't', 7);
    for (const [field, expression] of Object.entries(sql))
      expect(`${meta.className}.${field}: ${expression}`).toMatch(/: (\(select |"t"\.)/);
  }
});
