import { IANAZone } from 'luxon';
import { canonicalTimeZone } from '../../src/modules/common/time-zones';
import { codes, startTestApp, type TestApp } from '../support/test-app';

interface Zone {
  name: string;
  offset: number;
  dst: boolean;
  latitude: number | null;
  longitude: number | null;
}

const LIST = '{ timeZones { name offset dst latitude longitude } }';

let t: TestApp;
let zones: Zone[];
let byName: Map<string, Zone>;
beforeAll(async () => {
  t = await startTestApp();
  const owner = await t.newAccount();
  zones = (await t.gqlOk<{ timeZones: Zone[] }>(owner, LIST)).timeZones;
  byName = new Map(zones.map((zone) => [zone.name, zone]));
});
afterAll(() => t?.close());

test('lists every zone once, sorted, each a name the runtime accepts', () => {
  expect(zones.length).toBeGreaterThan(300);
  expect(byName.size).toBe(zones.length);
  expect(zones.map((zone) => zone.name)).toEqual(zones.map((zone) => zone.name).sort());
  const invalid = zones.filter((zone) => !IANAZone.isValidZone(zone.name));
  expect(invalid).toEqual([]);
});

test('every zone a client may send is listed, in any spelling the service stores', () => {
  const missing = Intl.supportedValuesOf('timeZone')
    .flatMap((name) => [name, canonicalTimeZone(name)])
    .filter((name) => !byName.has(name));
  expect(missing).toEqual([]);
  for (const name of ['UTC', 'Etc/GMT+5', 'US/Eastern', 'Asia/Kolkata', canonicalTimeZone('Asia/Kolkata')]) {
    expect(byName.has(name)).toBe(true);
  }
});

test('zones carry the reference location of zone.tab', () => {
  const berlin = byName.get('Europe/Berlin')!;
  expect(berlin.latitude).toBeCloseTo(52.5, 1);
  expect(berlin.longitude).toBeCloseTo(13.37, 1);
  const newYork = byName.get('America/New_York')!;
  expect(newYork.latitude).toBeCloseTo(40.71, 1);
  expect(newYork.longitude).toBeCloseTo(-74.0, 0);
  // Another name of the same zone has the same place; zones without a place have null.
  expect(byName.get('US/Eastern')).toMatchObject({ latitude: newYork.latitude, longitude: newYork.longitude });
  expect(byName.get('UTC')).toMatchObject({ latitude: null, longitude: null });
  expect(byName.get('Etc/GMT+5')).toMatchObject({ latitude: null, longitude: null, offset: -5 * 3600, dst: false });
});

test('offsets and DST are those of the current instant', () => {
  expect(byName.get('Asia/Tokyo')).toMatchObject({ offset: 32400, dst: false });
  const newYork = byName.get('America/New_York')!;
  expect(newYork.offset).toBe(newYork.dst ? -14400 : -18000);
  expect(byName.get('UTC')).toMatchObject({ offset: 0, dst: false });
});

test('nameContains filters by a case-insensitive substring', async () => {
  const owner = await t.newAccount();
  const staff = await t.newStaff(owner);
  const data = await t.gqlOk<{ timeZones: Zone[] }>(staff, 'query($q: String) { timeZones(nameContains: $q) { name } }', { q: 'new_YORK' });
  expect(data.timeZones.map((zone) => zone.name)).toEqual(['America/New_York']);
  const none = await t.gqlOk<{ timeZones: Zone[] }>(owner, '{ timeZones(nameContains: "no such zone") { name } }');
  expect(none.timeZones).toEqual([]);
});

test('without credentials the list is 401 UNAUTHENTICATED', async () => {
  const res = await t.gql(undefined, LIST);
  expect(res.status).toBe(401);
  expect(codes(res)).toEqual(['UNAUTHENTICATED']);
});
