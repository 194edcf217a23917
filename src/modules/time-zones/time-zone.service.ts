import fs from 'node:fs';
import path from 'node:path';
import { DateTime, IANAZone } from 'luxon';
import type { RequestContext } from '../../core/request-context';
import { canonicalTimeZone, isValidTimeZone } from '../../core/zone-names';
import type { ListedTimeZone } from './listed-time-zone';

/** moment-timezone's packed tz data: zones as `name|...`, links as `target|alias`. */
interface PackedTzData {
  version: string;
  zones: string[];
  links: string[];
}

interface Coordinates {
  latitude: number;
  longitude: number;
}

interface IndexedZone {
  name: string;
  lowerName: string;
  /** The runtime's zone for the name; names the runtime treats as one zone share it. */
  zone: IANAZone;
  coordinates: Coordinates | null;
}

function readTzData<T>(file: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(`moment-timezone/data/${file}`), 'utf8')) as T;
}

/**
 * A zone.tab position, ISO 6709 sign-degrees-minutes[-seconds] (`-3157+11551`,
 * `+513030-0000731`), in decimal degrees. The sign applies to the whole value: -31°57' is
 * -31.95, not -31 + 57/60. (moment-timezone's metadata made that mistake, which also loses the
 * sign of places within a degree of the equator or of Greenwich, such as London; hence this file.)
 */
export function parseIso6709(position: string): Coordinates | undefined {
  const match = /^([+-])(\d{2})(\d{2})(\d{2})?([+-])(\d{3})(\d{2})(\d{2})?$/.exec(position);
  if (!match) return undefined;
  const [, latSign, latDeg, latMin, latSec, longSign, longDeg, longMin, longSec] = match;
  // Four decimals (about 10 m) keep the answer short; zone.tab is precise to a second of arc at best.
  const degrees = (sign: string, deg: string, min: string, sec = '0') =>
    (sign === '-' ? -1 : 1) *
    (Math.round((Number(deg) + Number(min) / 60 + Number(sec) / 3600) * 1e4) / 1e4);
  return {
    latitude: degrees(latSign, latDeg, latMin, latSec),
    longitude: degrees(longSign, longDeg, longMin, longSec),
  };
}

/**
 * The reference location of each zone.tab zone, from `zone.tab` beside this file: the tz
 * database's own file (public domain), copied from a tz release. Update it with moment-timezone's
 * data; a test fails when a zone the runtime knows from moment's data has no line here.
 */
function readZoneTab(): Map<string, Coordinates> {
  const located = new Map<string, Coordinates>();
  for (const line of fs.readFileSync(path.join(__dirname, 'zone.tab'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [, position, name] = line.split('\t');
    const coordinates = position === undefined ? undefined : parseIso6709(position);
    if (!name || !coordinates) throw new Error(`zone.tab: unreadable line ${JSON.stringify(line)}`);
    located.set(name, coordinates);
  }
  return located;
}

/**
 * Every zone name the service accepts, with its reference location. Names are the tz database's
 * (zones, links, Etc) as shipped by moment-timezone, plus the runtime's own canonical spellings,
 * kept only where the runtime's ICU knows them: offsets come from ICU, and a stored zone is in
 * ICU's spelling (see common/time-zones.ts).
 */
function buildIndex(): readonly IndexedZone[] {
  const packed = readTzData<PackedTzData>('packed/latest.json');
  const zoneTab = readZoneTab();
  // Each look-up builds an Intl.DateTimeFormat; names are looked up several times below.
  const spellings = new Map<string, string>();
  const canonical = (name: string): string => {
    const known = spellings.get(name);
    if (known !== undefined) return known;
    const spelling = canonicalTimeZone(name);
    spellings.set(name, spelling);
    return spelling;
  };

  const candidates = new Set<string>([
    ...packed.zones.map((zone) => zone.slice(0, zone.indexOf('|'))),
    ...packed.links.flatMap((link) => link.split('|')),
    ...Intl.supportedValuesOf('timeZone'),
  ]);
  const names = [...candidates].filter(isValidTimeZone);
  for (const name of names) candidates.add(canonical(name));
  const accepted = [...candidates].filter(isValidTimeZone).sort();

  // zone.tab lists one spelling of a zone (Europe/Kyiv, Asia/Kolkata); ICU may canonicalise to
  // another (Europe/Kiev, Asia/Calcutta), and links (US/Eastern) have no line of their own. A name
  // without a line takes the location of the one zone.tab zone that the runtime treats as the same
  // zone; merged zones of other places (Europe/Copenhagen → Europe/Berlin) keep their own line.
  const located = new Map<string, Coordinates[]>();
  for (const [name, coordinates] of zoneTab) {
    if (!isValidTimeZone(name)) continue;
    const key = canonical(name);
    located.set(key, [...(located.get(key) ?? []), coordinates]);
  }
  const coordinatesOf = (name: string): Coordinates | null => {
    const own = zoneTab.get(name);
    if (own) return own;
    const same = located.get(canonical(name)) ?? [];
    return same.length === 1 ? same[0] : null;
  };

  return accepted.map((name) => ({
    name,
    lowerName: name.toLowerCase(),
    zone: IANAZone.create(canonical(name)),
    coordinates: coordinatesOf(name),
  }));
}

let index: readonly IndexedZone[] | undefined;

/** Loaded and indexed on first use, once per process. */
function zoneIndex(): readonly IndexedZone[] {
  index ??= buildIndex();
  return index;
}

/** The time zone list: names and places from the tz data, offsets and DST from the runtime's ICU. */
export class TimeZoneService {
  list(ctx: Pick<RequestContext, 'now'>, nameContains?: string | null): ListedTimeZone[] {
    const needle = nameContains?.toLowerCase();
    const at = ctx.now.getTime();
    // Luxon's DST test costs a few offset look-ups; links (about a third of the names) reuse the
    // answer of their zone.
    const stateOf = new Map<IANAZone, { offset: number; dst: boolean }>();
    return zoneIndex()
      .filter((entry) => !needle || entry.lowerName.includes(needle))
      .map(({ name, zone, coordinates }) => {
        let state = stateOf.get(zone);
        if (!state) {
          const local = DateTime.fromMillis(at, { zone });
          state = { offset: Math.round(local.offset * 60), dst: local.isInDST };
          stateOf.set(zone, state);
        }
        return {
          name,
          ...state,
          latitude: coordinates?.latitude ?? null,
          longitude: coordinates?.longitude ?? null,
        };
      });
  }
}
