/**
 * Amounts travel as integers in the minor unit of the account's currency (`amountCents`): cents
 * of EUR, whole yen of JPY, fils (thousandths) of BHD, as ISO 4217 defines each currency's
 * exponent. Where a file shows an amount to a person it is divided by that exponent, never by a
 * fixed 100. The exponents come from the runtime's ICU data (CLDR, which follows ISO 4217), not
 * from a table of our own.
 */

function currencyFormat(currency: string): Intl.NumberFormat {
  return new Intl.NumberFormat('en', { style: 'currency', currency });
}

/** Digits of the minor unit: JPY 0, EUR 2, BHD and KWD 3. */
export function minorUnitDigits(currency: string): number {
  return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
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
