import { DateTime } from 'luxon';
import { formatLegacyTime } from '../../rest-facade/xml/legacy-dates';
import { seededRandom } from '../../src/cli/seeded-random';

/**
 * The legacy XML's wall times are written field by field from luxon's zone offsets: the text must
 * be luxon's own `ccc, dd LLL yyyy HH:mm:ss` for every instant and zone, clock changes and
 * historical offsets included, and `… GMT` where the wall time leaves four-digit years.
 */
const luxon = (iso: string, zone: string) => {
  const utc = DateTime.fromISO(iso, { zone: 'utc' }).setLocale('en-US');
  const wall = utc.setZone(zone);
  return wall.year >= 1 && wall.year <= 9999
    ? wall.toFormat('ccc, dd LLL yyyy HH:mm:ss')
    : `${utc.toFormat('ccc, dd LLL yyyy HH:mm:ss')} GMT`;
};

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'America/Los_Angeles',
  'Europe/Amsterdam',
  'Africa/Monrovia',
];

test('every instant in every zone is written as luxon writes it', () => {
  const random = seededRandom(7);
  for (let i = 0; i < 20_000; i++) {
    // 1850 to 2100: historical offsets with seconds, and the years ahead.
    const ms = Date.UTC(1850, 0, 1) + Math.floor(random() * 250 * 365.25 * 86_400_000);
    const iso = new Date(ms).toISOString();
    const zone = ZONES[i % ZONES.length]!;
    expect([iso, zone, formatLegacyTime(iso, zone)]).toEqual([iso, zone, luxon(iso, zone)]);
  }
});

test('the edges: the first and last four-digit years, a clock change, a zone nobody knows', () => {
  for (const [iso, zone] of [
    ['0001-01-01T00:00:00.000Z', 'America/St_Johns'],
    ['9999-12-31T23:59:59.000Z', 'Asia/Kolkata'],
    ['2026-03-29T01:00:00.000Z', 'Europe/Berlin'],
    ['2026-03-29T00:59:59.000Z', 'Europe/Berlin'],
    ['2026-01-01T00:00:00.000Z', 'Mars/Olympus_Mons'],
  ] as const)
    expect(formatLegacyTime(iso, zone)).toBe(luxon(iso, zone));
});
