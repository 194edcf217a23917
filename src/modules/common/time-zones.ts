import { DateTime, IANAZone } from 'luxon';

/** True for names of the IANA tz database (luxon asks the runtime's ICU data). */
export function isValidTimeZone(name: string): boolean {
  return name.length <= 64 && IANAZone.isValidZone(name);
}

/** The zone's offset from UTC at that instant, in seconds. */
export function offsetSecondsAt(zone: string, at: Date): number | null {
  if (!isValidTimeZone(zone)) return null;
  return DateTime.fromJSDate(at, { zone }).offset * 60;
}
