import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';

/** True for names of the IANA tz database (luxon asks the runtime's ICU data). */
export function isValidTimeZone(name: string): boolean {
  return name.length <= 64 && IANAZone.isValidZone(name);
}

/** The runtime's own spelling of a valid zone name ('europe/berlin' → 'Europe/Berlin'). */
export function canonicalTimeZone(name: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
}

/** A zod rule for zone names: valid IANA names, stored in canonical spelling. */
export const timeZoneField = () =>
  z.string().refine(isValidTimeZone, 'is not a valid IANA time zone').transform(canonicalTimeZone);

/** The zone's offset from UTC at that instant, in seconds. */
export function offsetSecondsAt(zone: string, at: Date): number | null {
  if (!isValidTimeZone(zone)) return null;
  return DateTime.fromJSDate(at, { zone }).offset * 60;
}
