import { DateTime, IANAZone } from 'luxon';
import { parseInstant } from '../../src/core/instants';
import { FieldProblem, type FieldKind } from '../json/input-fields';

/**
 * The legacy XML shift time: `Tue, 17 Mar 2009 10:00:00`, optionally followed by `GMT`. Without
 * the marker it is wall time in the shift's time zone.
 */
const LEGACY =
  /^\s*(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun),\s*)?(\d{1,2})\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*(GMT|UTC|Z)?\s*$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FORMAT = 'ccc, dd LLL yyyy HH:mm:ss';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1));
const two = (n: number) => String(n).padStart(2, '0');

/**
 * Writes an instant as the shift's wall time, the way old clients read it: moved by the zone's
 * offset at that instant (luxon's, as `setZone` moves it) and written field by field, which on a
 * list of thousands of shifts costs a fraction of formatting each through luxon's tokens.
 */
export function formatLegacyTime(iso: string, zone: string): string {
  const instant = Date.parse(iso);
  const offset = offsetAt(zone, instant);
  const wall = new Date(instant + offset * 60_000);
  const year = wall.getUTCFullYear();
  // A wall time past year 9999 has no four-digit form; the instant with GMT is still legacy.
  if (Number.isNaN(offset) || year < 1 || year > 9999) return luxonLegacyTime(iso, zone);
  return `${DAYS[wall.getUTCDay()]}, ${two(wall.getUTCDate())} ${MONTH_NAMES[wall.getUTCMonth()]} ${String(year).padStart(4, '0')} ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`;
}

/** Offsets of the quarter hours already seen, by zone: null where one changes inside its quarter. */
const QUARTER = 900_000;
const quarters = new Map<string, Map<number, number | null>>();

/**
 * The zone's offset at an instant in minutes (NaN for a zone luxon does not know), as luxon's
 * `offset`, which asks Intl each time; kept per quarter hour whose start and end agree, so a list
 * of shifts asks a few times rather than twice per shift.
 */
function offsetAt(zone: string, instant: number): number {
  const iana = IANAZone.create(zone);
  if (!iana.isValid) return NaN;
  let seen = quarters.get(zone);
  if (!seen) quarters.set(zone, (seen = new Map()));
  const quarter = Math.floor(instant / QUARTER);
  let known = seen.get(quarter);
  if (known === undefined) {
    const start = iana.offset(quarter * QUARTER);
    known = start === iana.offset((quarter + 1) * QUARTER - 1) ? start : null;
    if (seen.size > 100_000) seen.clear();
    seen.set(quarter, known);
  }
  return known ?? iana.offset(instant);
}

/** `formatLegacyTime` through luxon, for what the fast way does not write (a zone it does not know). */
function luxonLegacyTime(iso: string, zone: string): string {
  const utc = DateTime.fromISO(iso, { zone: 'utc' }).setLocale('en-US');
  const wall = utc.setZone(zone);
  return wall.year >= 1 && wall.year <= 9999
    ? wall.toFormat(FORMAT)
    : `${utc.toFormat(FORMAT)} GMT`;
}

export type LegacyTime =
  /** An instant, when the text carried GMT. */
  | { readonly kind: 'instant'; readonly iso: string }
  /** Wall time without zone (`2009-03-17T10:00:00`), for the service to place in the shift's zone. */
  | { readonly kind: 'wall'; readonly local: string };

/**
 * Reads the legacy form; undefined when the text is not one, names no real moment (30 Feb, 24:00,
 * year 0000: the service's one date-time rule) or names a weekday the date does not have.
 */
export function parseLegacyTime(text: string): LegacyTime | undefined {
  const match = LEGACY.exec(text);
  if (!match) return undefined;
  const [, weekday, day, month, year, hour, minute, second, marker] = match;
  const two = (digits: string) => digits.padStart(2, '0');
  const local = `${year}-${two(String(MONTHS.indexOf(month!.toLowerCase()) + 1))}-${two(day!)}T${hour}:${minute}:${second ?? '00'}`;
  // Read as if UTC: for a wall time this checks the calendar only; the service places it in the zone.
  const instant = parseInstant(`${local}Z`);
  if (!instant) return undefined;
  // A weekday that contradicts the date means the client and we disagree about the date.
  const utc = DateTime.fromJSDate(instant, { zone: 'utc' }).setLocale('en-US');
  if (weekday && utc.toFormat('ccc').toLowerCase() !== weekday.toLowerCase()) return undefined;
  if (marker) return { kind: 'instant', iso: utc.toISO({ suppressMilliseconds: true })! };
  return { kind: 'wall', local };
}

/** A time field of an XML body: `Tue, 17 Mar 2009 10:00:00`, with or without GMT. */
export const legacyTime: FieldKind = {
  schema: { type: ['string', 'null'] },
  convert(value) {
    if (value === null || value === '') return null;
    const parsed = typeof value === 'string' ? parseLegacyTime(value) : undefined;
    if (!parsed)
      throw new FieldProblem(
        'must be a time such as "Tue, 17 Mar 2009 10:00:00" (wall time) or "... GMT"',
      );
    return parsed;
  },
};
