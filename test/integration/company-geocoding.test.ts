import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompanyService } from '../../src/modules/companies/company.service';
import type { Geocoder } from '../../src/modules/companies/geocoder';
import { LogCapture } from '../support/log-capture';
import {
  basicCredentials,
  startTestApp,
  type Credentials,
  type TestApp,
} from '../support/test-app';

/** Rule 8: blank coordinates are derived from a complete address; failure never fails the save. */

const FIELDS = 'id mainAddress mainCity mainState mainPostcode mainCountry latitude longitude';
const CREATE = `mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { ${FIELDS} } } }`;
const UPDATE = `mutation($id: ID!, $input: CompanyInput!) { updateCompany(input: { company: { id: $id }, patch: $input }) { company { ${FIELDS} } } }`;
const GET = `query($id: ID) { company(id: $id) { ${FIELDS} } }`;

const BERLIN_ADDRESS = {
  mainAddress: 'Unter den Linden 1',
  mainCity: 'Berlin',
  mainState: 'Berlin',
  mainPostcode: '10117',
  mainCountry: 'Germany',
};
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const SPRINGFIELD_ADDRESS = {
  mainAddress: '1 Capitol Avenue',
  mainCity: 'Springfield',
  mainState: 'Illinois',
  mainPostcode: '62701',
  mainCountry: 'USA',
};
const SPRINGFIELD_IL = { latitude: 39.8, longitude: -89.644 };

function km(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('with the default (offline) geocoder', () => {
  let t: TestApp;
  let owner: Credentials;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newAccount();
  });
  afterAll(() => t?.close());

  const create = async (input: Record<string, unknown>) =>
    (await t.gqlOk(owner, CREATE, { input })).createCompany.company;

  test('a complete address fills the coordinates near the city, and they are stored', async () => {
    const berlin = await create({ name: 'Berlin GmbH', ...BERLIN_ADDRESS });
    expect(km(berlin, BERLIN)).toBeLessThan(10);
    expect((await t.gqlOk(owner, GET, { id: berlin.id })).company).toEqual(berlin);

    const springfield = await create({
      name: 'Springfield Inc',
      ...SPRINGFIELD_ADDRESS,
      latitude: null,
      longitude: null,
    });
    expect(km(springfield, SPRINGFIELD_IL)).toBeLessThan(10);
  });

  test.each(['mainAddress', 'mainCity', 'mainState', 'mainPostcode', 'mainCountry'])(
    'an address without %s (missing or blank) leaves them null',
    async (field) => {
      expect(
        await create({ name: 'Partial', ...BERLIN_ADDRESS, [field]: undefined }),
      ).toMatchObject({ latitude: null, longitude: null });
      expect(await create({ name: 'Blank', ...BERLIN_ADDRESS, [field]: '   ' })).toMatchObject({
        latitude: null,
        longitude: null,
      });
    },
  );

  test('an Australian address with the state abbreviated (Perth WA) is located in Perth, Western Australia', async () => {
    const perth = await create({
      name: 'Hay St Pty Ltd',
      mainAddress: '1 Hay St',
      mainCity: 'Perth',
      mainState: 'WA',
      mainPostcode: '6000',
      mainCountry: 'Australia',
    });
    expect(km(perth, { latitude: -31.95, longitude: 115.86 })).toBeLessThan(5);
    expect((await t.gqlOk(owner, GET, { id: perth.id })).company).toEqual(perth);
  });

  test('a city the gazetteer does not know leaves them null', async () => {
    expect(
      await create({ name: 'Nowhere', ...BERLIN_ADDRESS, mainCity: 'Atlantisville' }),
    ).toMatchObject({ latitude: null, longitude: null });
  });

  test('coordinates given by the client are kept, even one alone', async () => {
    expect(
      await create({ name: 'Given', ...BERLIN_ADDRESS, latitude: 10.5, longitude: -20.25 }),
    ).toMatchObject({
      latitude: 10.5,
      longitude: -20.25,
    });
    expect(await create({ name: 'Half', ...BERLIN_ADDRESS, latitude: 10.5 })).toMatchObject({
      latitude: 10.5,
      longitude: null,
    });
    const c = await create({ name: 'Moved', ...BERLIN_ADDRESS, latitude: 1, longitude: 2 });
    const moved = (await t.gqlOk(owner, UPDATE, { id: c.id, input: SPRINGFIELD_ADDRESS }))
      .updateCompany.company;
    expect(moved).toMatchObject({ ...SPRINGFIELD_ADDRESS, latitude: 1, longitude: 2 });
  });

  test('an update that completes the address fills them', async () => {
    const { mainPostcode: _p, mainCountry: _c, ...partial } = BERLIN_ADDRESS;
    const c = await create({ name: 'Later', ...partial });
    expect(c).toMatchObject({ latitude: null, longitude: null });
    const half = (await t.gqlOk(owner, UPDATE, { id: c.id, input: { mainPostcode: '10117' } }))
      .updateCompany.company;
    expect(half).toMatchObject({ latitude: null, longitude: null });
    const done = (await t.gqlOk(owner, UPDATE, { id: c.id, input: { mainCountry: 'DE' } }))
      .updateCompany.company;
    expect(km(done, BERLIN)).toBeLessThan(10);
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(done);
  });

  test('an update that gives the whole address and null coordinates needs no stored values', async () => {
    const c = await create({ name: 'Replaced', latitude: 1, longitude: 2 });
    const input = { ...SPRINGFIELD_ADDRESS, latitude: null, longitude: null };
    const replaced = (await t.gqlOk(owner, UPDATE, { id: c.id, input })).updateCompany.company;
    expect(km(replaced, SPRINGFIELD_IL)).toBeLessThan(10);
  });

  test('clearing the coordinates alone, or an update not touching the address, leaves them null', async () => {
    const c = await create({ name: 'Cleared', ...BERLIN_ADDRESS, latitude: 1, longitude: 2 });
    const cleared = (
      await t.gqlOk(owner, UPDATE, { id: c.id, input: { latitude: null, longitude: null } })
    ).updateCompany.company;
    expect(cleared).toMatchObject({ latitude: null, longitude: null });
    const renamed = (await t.gqlOk(owner, UPDATE, { id: c.id, input: { name: 'Renamed' } }))
      .updateCompany.company;
    expect(renamed).toMatchObject({ latitude: null, longitude: null });
    // Setting an address field (even to its current value) derives them again.
    const readdressed = (
      await t.gqlOk(owner, UPDATE, { id: c.id, input: { mainAddress: 'Pariser Platz 1' } })
    ).updateCompany.company;
    expect(km(readdressed, BERLIN)).toBeLessThan(10);
  });

  test('the geocoder runs before the transaction; one that throws or answers nonsense never fails the save', async () => {
    const statements: string[] = [];
    t.db.orm.em
      .getConnection()
      .getKnex()
      .on('query', (q: { sql: string }) => statements.push(q.sql.toLowerCase()));
    const ctx = await t.app.createContext(basicCredentials(owner));
    // Made outside a request, the context logs on the app's logger.
    const warn = jest.spyOn(ctx.log, 'warn').mockImplementation(() => undefined);
    try {
      const throwing: Geocoder = {
        locate: async () => {
          statements.push('<geocoder>');
          throw new Error('geocoder down');
        },
      };
      const service = new CompanyService(throwing);
      const saved = await service.create(ctx, { name: 'Thrown', ...BERLIN_ADDRESS } as never);
      expect(saved).toMatchObject({ latitude: null, longitude: null });
      expect(statements.indexOf('<geocoder>')).toBeGreaterThanOrEqual(0);
      expect(statements.indexOf('<geocoder>')).toBeLessThan(
        statements.findIndex((s) => s.startsWith('begin')),
      );

      statements.length = 0;
      expect(await service.update(ctx, { id: saved.uuid }, { mainCity: 'Berlin' })).toMatchObject({
        latitude: null,
        longitude: null,
      });
      expect(statements.indexOf('<geocoder>')).toBeGreaterThanOrEqual(0);
      expect(statements.indexOf('<geocoder>')).toBeLessThan(
        statements.findIndex((s) => s.startsWith('begin')),
      );
      expect(warn).toHaveBeenCalledTimes(2);

      const nonsense: Geocoder = { locate: async () => ({ latitude: 123, longitude: Number.NaN }) };
      const updated = await new CompanyService(nonsense).update(
        ctx,
        { id: saved.uuid },
        { mainCity: 'Berlin' },
      );
      expect(updated).toMatchObject({ latitude: null, longitude: null });
      expect((await t.gqlOk(owner, GET, { id: saved.uuid })).company).toMatchObject({
        ...BERLIN_ADDRESS,
        latitude: null,
        longitude: null,
      });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('with GEOCODER=http and nothing listening at GEOCODER_URL', () => {
  let t: TestApp;
  let owner: Credentials;
  const logs = new LogCapture();
  beforeAll(async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    t = await startTestApp(
      { GEOCODER: 'http', GEOCODER_URL: `http://127.0.0.1:${port}/search`, LOG_LEVEL: 'warn' },
      { logDestination: logs },
    );
    owner = await t.newAccount();
  });
  afterAll(() => t?.close());

  test('the company is saved, created and updated, with null coordinates', async () => {
    const c = (await t.gqlOk(owner, CREATE, { input: { name: 'Offline', ...BERLIN_ADDRESS } }))
      .createCompany.company;
    expect(c).toMatchObject({ ...BERLIN_ADDRESS, latitude: null, longitude: null });
    const u = (await t.gqlOk(owner, UPDATE, { id: c.id, input: { mainCity: 'Potsdam' } }))
      .updateCompany.company;
    expect(u).toMatchObject({ mainCity: 'Potsdam', latitude: null, longitude: null });
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(u);
    // One warning per lookup, each on the line of its own request.
    const warnings = logs.records().filter((r) => r.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]!.msg).toMatch(/geocoder: http:\/\/127\.0\.0\.1:\d+\/search failed/);
    expect(new Set(warnings.map((w) => w.reqId)).size).toBe(2);
  });
});
