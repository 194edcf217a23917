import { code as iso4217 } from 'currency-codes';

/**
 * Amounts travel as integers in the minor unit of the account's currency (`amountCents`): cents
 * of EUR, whole yen of JPY, fils (thousandths) of BHD, as ISO 4217 defines each currency's
 * exponent. Where a file shows an amount to a person it is divided by that exponent, never by a
 * fixed 100. The exponents come from ISO 4217's own list (the currency-codes package), not from
 * the runtime's ICU data, whose display digits differ for some currencies (0 for HUF, which ISO
 * gives 2). A code the list does not know has 2.
 */

/** Digits of the minor unit: JPY 0, EUR and HUF 2, BHD and KWD 3. */
export function minorUnitDigits(currency: string): number {
  return iso4217(currency)?.digits ?? 2;
}

/** The currency's format, with exactly as many decimals as its minor unit. */
function currencyFormat(currency: string): Intl.NumberFormat {
  const digits = minorUnitDigits(currency);
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** An amount in minor units as the currency's units: 12345 EUR cents → 123.45; 12345 JPY → 12345. */
export function majorUnits(minor: number, currency: string): number {
  return minor / 10 ** minorUnitDigits(currency);
}

/** An amount in minor units as a person reads it: `€123.45`, `¥12,345`, `BHD 1.234`. */
export function formatMoney(minor: number, currency: string): string {
  return currencyFormat(currency).format(majorUnits(minor, currency));
}

/**
 * The spreadsheet number format of the currency's amounts, its symbol before the figure and as
 * many decimals as its minor unit: `"€"#,##0.00`, `"¥"#,##0`, `"BHD "#,##0.000`. The symbol is
 * a quoted literal, so the format reads the same whatever the reader's locale.
 */
export function sheetMoneyFormat(currency: string): string {
  const parts = currencyFormat(currency).formatToParts(0);
  const symbol = parts
    .filter((part) => part.type === 'currency' || part.type === 'literal')
    .map((part) => part.value)
    .join('')
    .replace(/\u00a0/g, ' ');
  const digits = minorUnitDigits(currency);
  return `"${symbol.replace(/"/g, '')}"#,##0${digits > 0 ? `.${'0'.repeat(digits)}` : ''}`;
}
