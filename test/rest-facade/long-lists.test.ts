import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/http/app';
import { hashSecret } from '../../src/modules/oauth';
import { list, parseXml } from '../support/legacy-answers';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Legacy lists know no paging: a client gets every row up to the server's cap (PAGE_SIZE_MAX,
 * 2,200 here), which the facade reads in one operation (rest-facade/list-pages.ts). Only when the
 * per-operation cost limit refuses that page does it read smaller pages, written as each comes;
 * the answer is the same, byte for byte.
 */
const SHIFTS = 2500;
const CAP = 2200;

let t: TestApp;
let owner: Credentials;
let project: { id: string; legacyId: number };
beforeAll(async () => {
  t = await startTestApp({ PAGE_SIZE_MAX: String(CAP) });
  owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Client", visibility: PUBLIC }) { company { id } } }',
  );
  ({
    createProject: { project },
  } = await t.gqlOk(
    owner,
    'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Long", visibility: PUBLIC }) { project { id legacyId } } }',
    { c: createCompany.company.id },
  ));
  // Hours one after another, in the order of their ids.
  await t.db.orm.em.getConnection().execute(
    `insert into shifts (uuid, account_id, project_id, user_id, start, stop)
     select gen_random_uuid(), p.account_id, p.id, u.id,
            timestamptz '2025-01-01T00:00:00Z' + n * interval '2 hours',
            timestamptz '2025-01-01T01:00:00Z' + n * interval '2 hours'
       from projects p
       join users u on u.account_id = p.account_id and lower(u.login) = lower(?)
      cross join generate_series(1, ?) as n
      where p.uuid = ?
      order by n`,
    [owner.login, SHIFTS, project.id],
  );
});
afterAll(() => t?.close());

const get = (path: string) => request(t.app.express).get(path).auth(owner.login, owner.password);

test('a long JSON list comes whole, in order, up to the cap, with the full count, from one statement', async () => {
  let res: request.Response | undefined;
  const statements = await t.recordStatements(async () => {
    res = await get(`/api/1/projects/${project.id}/shifts.json`);
  });
  const { items, count } = list(res!);
  expect(count).toBe(SHIFTS);
  expect(items).toHaveLength(CAP);
  expect(new Set(items.map((s) => s.uuid)).size).toBe(CAP);
  const starts = items.map((s) => Date.parse(s.start));
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  expect(items[0].start).toBe('2025-01-01T02:00:00Z');
  // Read whole, so written with its length; the text is JSON.stringify's of the whole.
  expect(res!.headers['content-length']).toBe(String(Buffer.byteLength(res!.text)));
  expect(res!.text).toBe(JSON.stringify(res!.body));
  // One page of the cap's 2,200 rows, counted once (by the executor's own statement, or inside
  // the page's when the read is compiled to SQL).
  expect(statements.filter((sql) => /count\(\*\)/.test(sql))).toHaveLength(1);
  expect(
    statements.filter((sql) => /from "shifts" as "s0" where/.test(sql) && / limit /.test(sql)),
  ).toHaveLength(1);
});

test('JSONP wraps the same text', async () => {
  // JSONP signs in by a token in its URL only: one issued straight into the tables for the owner
  // (the grant, and its key filed under the account, as the OAuth provider writes them).
  const { registerOAuthClient } = await t.gqlOk(
    owner,
    'mutation { registerOAuthClient(input: { name: "Widget", protocol: OAUTH2, redirectUris: ["https://widget.example/cb"] }) { client { key } } }',
  );
  const token = randomBytes(32).toString('hex');
  await t.db.orm.em.getConnection().execute(
    `with grant_row as (
       insert into oauth2_tokens (client_id, user_id, account_id, access_token_hash, access_expires_at)
       select c.id, u.id, u.account_id, ?, now() + interval '1 hour'
         from oauth_clients c join users u on u.account_id = c.account_id and lower(u.login) = lower(?)
        where c.client_key = ?
       returning account_id, access_token_hash, access_expires_at)
     insert into oauth_token_accounts (token, account_id, expires_at)
     select access_token_hash, account_id, access_expires_at from grant_row`,
    [hashSecret(token), owner.login, registerOAuthClient.client.key],
  );
  const path = `/api/1/projects/${project.id}/shifts`;
  const json = await get(`${path}.json`);
  const jsonp = await request(t.app.express).get(
    `${path}.jsonp?callback=app.take&access_token=${token}`,
  );
  expect(jsonp.status).toBe(200);
  expect(jsonp.headers['content-type']).toBe('application/javascript; charset=utf-8');
  expect(jsonp.text).toBe(`/**/ typeof app.take === 'function' && app.take(${json.text});`);
});

test('a long XML list is one document with every shift up to the cap', async () => {
  let res: request.Response | undefined;
  const statements = await t.recordStatements(async () => {
    res = await get(`/project/${project.legacyId}/shifts.xml`);
  });
  // The XML lists show no count, so none is read.
  expect(statements.filter((sql) => /count\(\*\)/.test(sql))).toEqual([]);
  expect(res!.status).toBe(200);
  expect(res!.headers['content-type']).toBe('application/xml; charset=utf-8');
  const text = res!.text;
  expect(
    text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<shifts type="array">\n  <shift>\n'),
  ).toBe(true);
  expect(text.endsWith('\n  </shift>\n</shifts>')).toBe(true);
  const root = parseXml(text);
  expect(root.children).toHaveLength(CAP);
  const ids = root.children.map((s) => Number(s.children.find((c) => c.name === 'id')!.text));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(CAP);
});

test('pages over the per-operation cost limit are asked for smaller: the same answer, whole', async () => {
  // An operator's GRAPHQL_MAX_COST below what a page of 1,000 shifts costs.
  const limited = await createApp({
    orm: t.db.orm,
    config: { ...t.config, graphql: { ...t.config.graphql, maxCost: 2_000 } },
  });
  try {
    for (const path of [
      `/api/1/projects/${project.id}/shifts.json`,
      `/project/${project.legacyId}/shifts.xml`,
    ]) {
      const whole = await get(path);
      let paged: request.Response | undefined;
      const statements = await t.recordStatements(async () => {
        paged = await request(limited.express).get(path).auth(owner.login, owner.password);
      });
      expect(paged!.status).toBe(200);
      expect(paged!.text).toBe(whole.text);
      // Written as each page came: no length up front.
      expect(paged!.headers['transfer-encoding']).toBe('chunked');
      expect(paged!.headers['content-length']).toBeUndefined();
      // More than three pages, each within the limit.
      expect(
        statements.filter((sql) => /from "shifts" as "s0" where/.test(sql) && / limit /.test(sql))
          .length,
      ).toBeGreaterThan(3);
    }
  } finally {
    await limited.stop();
  }
});

test('downloads under a low per-operation cost limit read smaller pages: the same files', async () => {
  // An export page of 250 shifts costs 1,251 and one of 10,000 report rows 30,001.
  const limited = await createApp({
    orm: t.db.orm,
    config: { ...t.config, graphql: { ...t.config.graphql, maxCost: 500 } },
  });
  try {
    const report =
      'from=2025-01-01T00:00:00Z&to=2025-06-01T00:00:00Z&group_by=project,user&bucket=day';
    for (const path of [
      `/api/1/projects/${project.id}/shifts.csv`,
      `/api/1/report.csv?${report}`,
      `/api/1/report.json?${report}`,
    ]) {
      const whole = await get(path);
      expect(whole.status).toBe(200);
      let paged: request.Response | undefined;
      const statements = await t.recordStatements(async () => {
        paged = await request(limited.express).get(path).auth(owner.login, owner.password);
      });
      expect(paged!.status).toBe(200);
      expect(paged!.text).toBe(whole.text);
      expect(statements.length).toBeGreaterThan(3);
    }
    const workbook = await request(limited.express)
      .get(`/api/1/projects/${project.id}/shifts.xlsx`)
      .auth(owner.login, owner.password);
    expect(workbook.status).toBe(200);
  } finally {
    await limited.stop();
  }
});

test('a short list is answered whole, with its length, as before', async () => {
  const res = await get('/api/1/projects.json');
  expect(list(res).items).toHaveLength(1);
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
  expect(res.headers['transfer-encoding']).toBeUndefined();
});
