import * as chrono from 'chrono-node';
import { DateTime, FixedOffsetZone } from 'luxon';

/** Text that starts with a date in digits, year first (2013-02-28). */
const YEAR_FIRST = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\b/;

/**
 * Reads a human-written time ("tomorrow 9am", "21 Nov 2026 14:00") as wall time in an IANA zone.
 * chrono-node finds the date and time parts relative to "now" as seen in that zone; luxon turns
 * those parts into the instant they mean there (DST included). Undefined when nothing parses.
 */
export function parseLocalTime(text: string, zone: string, now: Date): Date | undefined {
  const local = DateTime.fromJSDate(now, { zone });
  // chrono reads its reference in the process's zone; hand it the zone's wall clock instead.
  const reference = new Date(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
  );
  const [result] = chrono.parse(text, reference, { forwardDate: false });
  if (!result || result.text.trim().length < text.trim().length * 0.5) return undefined;
  // chrono skips what it cannot read: in "Feb 28 2013 25:00" it reads the date and implies noon.
  // A number left unread would be a time stored other than the one written.
  const unread = text.slice(0, result.index) + text.slice(result.index + result.text.length);
  if (/\d/.test(unread)) return undefined;
  const parts = result.start;
  // chrono reads an impossible month as a day ("2013-13-01" as 13 January): the date read must
  // be the date written.
  const written = YEAR_FIRST.exec(text)?.slice(1).map(Number);
  if (
    written &&
    [parts.get('year'), parts.get('month'), parts.get('day')].some(
      (value, i) => value !== written[i],
    )
  )
    return undefined;
  const wall = DateTime.fromObject(
    {
      year: parts.get('year') ?? local.year,
      month: parts.get('month') ?? local.month,
      day: parts.get('day') ?? local.day,
      hour: parts.get('hour') ?? 0,
      minute: parts.get('minute') ?? 0,
      second: parts.get('second') ?? 0,
    },
    { zone },
  );
  // An explicit offset in the text ("14:00 +02:00") wins over the zone.
  const offset = parts.get('timezoneOffset');
  const instant =
    offset != null ? wall.setZone(FixedOffsetZone.instance(offset), { keepLocalTime: true }) : wall;
  return instant.isValid ? instant.toJSDate() : undefined;
}
