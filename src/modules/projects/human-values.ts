import currency from 'currency.js';
import parseDuration from 'parse-duration';

/**
 * Reads the human forms of a project's limit and rate, as legacy clients send them. The units and
 * number formats come from libraries (parse-duration, currency.js); only the two forms they do not
 * know are handled here: clock notation ("1:30") and a bare number of hours ("12").
 */

const CLOCK = /^(\d{1,5}):([0-5]\d)(?::([0-5]\d))?$/;
const BARE_NUMBER = /^\d+(\.\d+)?$/;
const MAX_SECONDS = 2_000_000_000;

/** "12h", "2h 30m", "1:30", "90 minutes", "1.5 hours", "12" (hours) → seconds; undefined if unreadable. */
export function parseTimeLimit(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return undefined;
  const clock = CLOCK.exec(trimmed);
  let seconds: number | null | undefined;
  if (clock) seconds = Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  else if (trimmed.includes(':')) return undefined;
  else if (BARE_NUMBER.test(trimmed)) seconds = Number(trimmed) * 3600;
  else seconds = parseDuration(trimmed, 's');
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SECONDS)
    return undefined;
  return Math.round(seconds);
}

/** A comma before the last two digits is a decimal comma ("€ 1.234,50"). */
const DECIMAL_COMMA = /\d,\d{1,2}\s*$/;

/**
 * "$85", "$12.50", "AU$ 90.00", "€ 1.234,50" → the amount in minor units of a currency with
 * `digits` decimals (2: cents; 0 for yen: "¥5000" → 5000); undefined if there is no amount.
 */
export function parseHourlyRate(text: string, digits: number): number | undefined {
  const trimmed = text.trim();
  if (!/\d/.test(trimmed) || trimmed.includes('-')) return undefined;
  const amount = DECIMAL_COMMA.test(trimmed)
    ? currency(trimmed, { separator: '.', decimal: ',', precision: digits })
    : currency(trimmed, { precision: digits });
  const cents = amount.intValue;
  return Number.isSafeInteger(cents) && cents >= 0 && cents <= MAX_SECONDS ? cents : undefined;
}
