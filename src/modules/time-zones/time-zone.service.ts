import fs from 'node:fs';
import { DateTime, IANAZone } from 'luxon';
import type { RequestContext } from '../../graphql/context';
import { canonicalTimeZone, isValidTimeZone } from '../common/time-zones';
import type { TimeZone } from './time-zone.type';

/** moment-timezone's packed tz data: zones as `name|...`, links as `target|alias`. */
interface PackedTzData {
  version: string;
  zones: string[];
  links: string[];
}

/** moment-timezone's metadata: zone.tab's reference location of each zone. */
interface TzMeta {
  version: string;
  zones: Record<string, { name: string; lat: number; long: number }>;
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
 * Every zone name the service accepts, with its reference location. Names are the tz database's
 * (zones, links, Etc) as shipped by moment-timezone, plus the runtime's own canonical spellings,
 * kept only where the runtime's ICU knows them: offsets come from ICU, and a stored zone is in
 * ICU's spelling (see common/time-zones.ts).
 */
function buildIndex(): readonly IndexedZone[] {
  const packed = readTzData<PackedTzData>('packed/latest.json');
  const meta = readTzData<TzMeta>('meta/latest.json');
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
  for (const entry of Object.values(meta.zones)) {
    if (!isValidTimeZone(entry.name)) continue;
    const key = canonical(entry.name);
    located.set(key, [...(located.get(key) ?? []), { latitude: entry.lat, longitude: entry.long }]);
  }
  const coordinatesOf = (name: string): Coordinates | null => {
    const own = Object.hasOwn(meta.zones, name) ? meta.zones[name] : undefined;
    if (own) return { latitude: own.lat, longitude: own.long };
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
  list(ctx: Pick<RequestContext, 'now'>, nameContains?: string | null): TimeZone[] {
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
        return { name, ...state, latitude: coordinates?.latitude ?? null, longitude: coordinates?.longitude ?? null };
      });
  }
}
