import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IANAZone } from 'luxon';
import request from 'supertest';
import { canonicalTimeZone } from '../../src/core/zone-names';
import { parseXml } from '../support/legacy-answers';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

interface Zone {
  name: string;
  offset: number;
  dst: boolean;
  latitude: number | null;
  longitude: number | null;
}

const LIST = '{ timeZones { name offset dst latitude longitude } }';

let t: TestApp;
let owner: Credentials;
let zones: Zone[];
let byName: Map<string, Zone>;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
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
  for (const name of [
    'UTC',
    'Etc/GMT+5',
    'US/Eastern',
    'Asia/Kolkata',
    canonicalTimeZone('Asia/Kolkata'),
  ]) {
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
  expect(byName.get('US/Eastern')).toMatchObject({
    latitude: newYork.latitude,
    longitude: newYork.longitude,
  });
  expect(byName.get('UTC')).toMatchObject({ latitude: null, longitude: null });
  expect(byName.get('Etc/GMT+5')).toMatchObject({
    latitude: null,
    longitude: null,
    offset: -5 * 3600,
    dst: false,
  });
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
  const data = await t.gqlOk<{ timeZones: Zone[] }>(
    staff,
    'query($q: String) { timeZones(nameContains: $q) { name } }',
    { q: 'new_YORK' },
  );
  expect(data.timeZones.map((zone) => zone.name)).toEqual(['America/New_York']);
  const none = await t.gqlOk<{ timeZones: Zone[] }>(
    owner,
    '{ timeZones(nameContains: "no such zone") { name } }',
  );
  expect(none.timeZones).toEqual([]);
});

test('without credentials the list is 401 UNAUTHENTICATED', async () => {
  const res = await t.gql(undefined, LIST);
  expect(res.status).toBe(401);
  expect(codes(res)).toEqual(['UNAUTHENTICATED']);
});

// ---------------------------------------------------------------------------------------------
// Coordinates: zone.tab's ISO 6709 positions, where the sign covers degrees, minutes and seconds
// ---------------------------------------------------------------------------------------------

/** The zone.tab file the service reads: `name → position` (`-3157+11551`). */
function zoneTab(): Map<string, string> {
  const text = readFileSync(join(__dirname, '../../src/modules/time-zones/zone.tab'), 'utf8');
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  return new Map(
    lines.map((line) => line.split('\t')).map(([, position, name]) => [name!, position!]),
  );
}

/**
 * The test's own reading of a position: split at the longitude's sign, then sign × (degrees +
 * minutes/60 + seconds/3600) with two degree digits for latitude and three for longitude.
 */
function degreesOf(position: string): { latitude: number; longitude: number } {
  const cut = 1 + position.slice(1).search(/[+-]/);
  const part = (text: string, degreeDigits: number) => {
    const digits = text.slice(1);
    const [d, m, s] = [
      digits.slice(0, degreeDigits),
      digits.slice(degreeDigits, degreeDigits + 2),
      digits.slice(degreeDigits + 2) || '0',
    ];
    return (text.startsWith('-') ? -1 : 1) * (Number(d) + Number(m) / 60 + Number(s) / 3600);
  };
  return { latitude: part(position.slice(0, cut), 2), longitude: part(position.slice(cut), 3) };
}

const near = (a: number | null, b: number) => a !== null && Math.abs(a - b) < 0.0001;

test('every zone of zone.tab is served at its own position, for every sign of latitude and longitude', () => {
  const tab = zoneTab();
  const wrong = [...tab]
    .filter(([name]) => byName.has(name))
    .map(([name, position]) => ({
      name,
      position,
      served: byName.get(name)!,
      expected: degreesOf(position),
    }))
    .filter(
      ({ served, expected }) =>
        !near(served.latitude, expected.latitude) || !near(served.longitude, expected.longitude),
    )
    .map(
      ({ name, position, served }) =>
        `${name} ${position}: ${served.latitude}, ${served.longitude}`,
    );
  expect(wrong).toEqual([]);
  // All four quadrants, and the places within a degree of the equator or of Greenwich, are there.
  const served = [...tab.keys()]
    .filter((name) => byName.has(name))
    .map((name) => byName.get(name)!);
  expect(served.length).toBeGreaterThan(400);
  for (const [lat, long] of [
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ]) {
    expect(
      served.some((z) => Math.sign(z.latitude!) === lat && Math.sign(z.longitude!) === long),
    ).toBe(true);
  }
  // Another name of a zone (a link, ICU's spelling) is at the position of a zone.tab zone, or has none.
  const positions = [...tab.values()].map(degreesOf);
  const elsewhere = zones
    .filter((zone) => !tab.has(zone.name) && zone.latitude !== null)
    .filter(
      (zone) =>
        !positions.some(
          (p) => near(zone.latitude, p.latitude) && near(zone.longitude, p.longitude),
        ),
    );
  expect(elsewhere).toEqual([]);
});

test('zone.tab has a line for every zone of the tz data the list is built from (moment-timezone)', () => {
  const meta = JSON.parse(
    readFileSync(require.resolve('moment-timezone/data/meta/latest.json'), 'utf8'),
  ) as { zones: Record<string, unknown> };
  const tab = zoneTab();
  expect(Object.keys(meta.zones).filter((name) => !tab.has(name))).toEqual([]);
});

/** zone.tab's positions of places south of the equator, west of Greenwich, or within a degree of either. */
const SPOT_CHECKS: [string, number, number][] = [
  ['Australia/Perth', -31.95, 115.85], // -3157+11551
  ['America/Sao_Paulo', -23.5333, -46.6167], // -2332-04637
  ['America/Los_Angeles', 34.0522, -118.2428], // +340308-1181434
  ['America/St_Johns', 47.5667, -52.7167], // +4734-05243
  ['Europe/London', 51.5083, -0.1253], // +513030-0000731
  ['Africa/Accra', 5.55, -0.2167], // +0533-00013
  ['Asia/Pontianak', -0.0333, 109.3333], // -0002+10920
  ['Pacific/Galapagos', -0.9, -89.6], // -0054-08936
];

test('spot checks against zone.tab, in GraphQL, GET /api/1/time_zones.json and GET /time_zones.xml', async () => {
  const json = await request(t.app.express)
    .get('/api/1/time_zones.json')
    .auth(owner.login, owner.password);
  expect(json.status).toBe(200);
  const jsonByName = new Map(
    (json.body.response as { zone: string; latitude: number; longitude: number }[]).map((z) => [
      z.zone,
      z,
    ]),
  );
  const xml = await request(t.app.express).get('/time_zones.xml').auth(owner.login, owner.password);
  expect(xml.status).toBe(200);
  const text = (zone: { children: { name: string; text: string }[] }, name: string) =>
    zone.children.find((c) => c.name === name)!.text;
  const xmlByName = new Map(
    parseXml(xml.text).children.map((zone) => [
      text(zone, 'zone'),
      { latitude: Number(text(zone, 'latitude')), longitude: Number(text(zone, 'longitude')) },
    ]),
  );
  for (const [name, latitude, longitude] of SPOT_CHECKS) {
    for (const [source, zone] of [
      ['GraphQL', byName.get(name)],
      ['JSON', jsonByName.get(name)],
      ['XML', xmlByName.get(name)],
    ] as const) {
      expect({ name, source, latitude: zone?.latitude, longitude: zone?.longitude }).toEqual({
        name,
        source,
        latitude: expect.closeTo(latitude, 4),
        longitude: expect.closeTo(longitude, 4),
      });
    }
  }
});
