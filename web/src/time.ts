/**
 * Dates and times in a person's zone, with the browser's own tz database (Intl), so that a week
 * is the person's week across daylight-saving changes. Local dates are `YYYY-MM-DD` strings.
 */

/** One formatter a key, built on first use: building one costs far more than using it. */
function memo<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}

const partsFormat = memo(
  (zone) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);

/** The wall clock's fields of an instant in a zone (`year`, `month`, …, `second`), as digits. */
function wallParts(instant: Date | string | number, zone: string): Record<string, string> {
  return Object.fromEntries(
    partsFormat(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
}

/** The wall date and time of an instant in a zone. */
export function wallClock(instant: Date | string, zone: string): { date: string; time: string } {
  const parts = wallParts(instant, zone);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
  };
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(instant: number, zone: string): number {
  const { year, month, day, hour, minute, second } = wallParts(instant, zone);
  const asUtc = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall time has in a zone. A time the clocks skip (spring forward) moves forward by
 * the gap; a time they pass twice (fall back) is its first occurrence.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y!, m! - 1, d!, hh!, mm!);
  const matches = (instant: number) => {
    const back = wallClock(new Date(instant), zone);
    return back.date === date && back.time === time;
  };
  // The offsets a day either side (zones reach 14 hours from UTC); they differ only around a
  // change of the clocks.
  const early = wall - offsetMinutes(wall - 86_400_000, zone) * 60_000;
  const late = wall - offsetMinutes(wall + 86_400_000, zone) * 60_000;
  if (matches(early) || !matches(late)) return new Date(early);
  return new Date(late);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** The Monday of the ISO week holding `date`. */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const weekday = (new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

export function today(zone: string): string {
  return wallClock(new Date(), zone).date;
}

const dayFormat = new Intl.DateTimeFormat(undefined, {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** "Mon, 30 Nov" in the reader's language. */
export function dayLabel(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

/** Seconds as h:mm ("2:05", "-0:30"). */
export function duration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const minutes = Math.floor(Math.abs(seconds) / 60);
  return `${sign}${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Seconds as h:mm:ss, for a running timer. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Seconds as decimal hours with two decimals, as the charts and their tables show them. */
export function hours(seconds: number): string {
  return (seconds / 3600).toFixed(2);
}

const moneyFormat = memo(
  (currency) => new Intl.NumberFormat(undefined, { style: 'currency', currency }),
);

/** Minor units (cents of USD, yen of JPY, fils of BHD) in the currency's major units. */
export function majorUnits(minor: number, currency: string): number {
  return minor / 10 ** (moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2);
}

/** Minor units as money in the account's currency. */
export function money(minor: number, currency: string): string {
  return moneyFormat(currency).format(majorUnits(minor, currency));
}
