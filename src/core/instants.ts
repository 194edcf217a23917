import { DateTime } from 'luxon';

/**
 * The one rule for date-times on every interface (GraphQL's DateTimeISO, the JSON facade's RFC 3339
 * fields, the XML facade's legacy dates, `local_start_as_string`, report ranges): a date-time
 * names a real moment or it is refused, never rolled over. JavaScript's Date turns 30 February
 * into 2 March and 24:00 into the next day; luxon checks the day of the month (leap years
 * included), and the grammar below refuses what luxon would still accept (hour 24, year 0000).
 */

/** RFC 3339's date-time; the offset is optional here and required by `parseInstant`. */
const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/i;

/** The relaxed forms people and old clients type: a space for `T`, no seconds, `+0200`. */
const RELAXED = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Four-digit years of the Gregorian calendar: what RFC 3339 writes and PostgreSQL stores. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** What a refusal tells the client (it completes "<field> ..."). */
export const DATE_TIME_RULE =
  'must be a real RFC 3339 date-time such as 2026-11-21T09:00:00Z (a day the month has, hours 00-23, years 0001-9999)';

/**
 * An RFC 3339 date-time with `Z` or an offset (`2013-08-16T05:19:26Z`) as an instant, or
 * undefined when it is malformed or names no real moment.
 */
export function parseInstant(text: string): Date | undefined {
  return /(?:Z|[+-]\d{2}:\d{2})$/i.test(text) ? read(text, 'utc') : undefined;
}

/**
 * RFC 3339 or a relaxed form of it; without an offset it is wall time in `zone` (an IANA name).
 * Undefined when malformed or not a real moment.
 */
export function parseDateTimeText(text: string, zone: string): Date | undefined {
  const match = RELAXED.exec(text.trim());
  if (!match) return undefined;
  const [, date, minutes, seconds = ':00', offset = ''] = match;
  const colonOffset = /^[+-]\d{4}$/.test(offset)
    ? `${offset.slice(0, 3)}:${offset.slice(3)}`
    : offset;
  return read(`${date}T${minutes}${seconds}${colonOffset}`, zone);
}

function read(text: string, zone: string): Date | undefined {
  if (!DATE_TIME.test(text)) return undefined;
  // setZone keeps the written offset, so `year` is the year as written.
  const written = DateTime.fromISO(text, { zone, setZone: true });
  if (!written.isValid || !inYears(written.year) || !inYears(written.toUTC().year))
    return undefined;
  return written.toJSDate();
}

const inYears = (year: number) => year >= FIRST_YEAR && year <= LAST_YEAR;
