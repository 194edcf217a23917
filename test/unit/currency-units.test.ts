import {
  formatMoney,
  majorUnits,
  minorUnitDigits,
  sheetMoneyFormat,
} from '../../src/core/currency-units';

/**
 * Amounts are integers in the minor unit ISO 4217 gives each currency. The runtime's ICU data
 * shows some currencies with other digits (HUF and IDR with none, IQD with none where ISO has 3):
 * the exponent is ISO's, and a person reads as many decimals as it has.
 */
test.each([
  ['EUR', 2, 123456, 1234.56, '€1,234.56', '"€"#,##0.00'],
  ['JPY', 0, 15000, 15000, '¥15,000', '"¥"#,##0'],
  ['HUF', 2, 123456, 1234.56, 'HUF 1,234.56', '"HUF "#,##0.00'],
  ['IQD', 3, 1234567, 1234.567, 'IQD 1,234.567', '"IQD "#,##0.000'],
  ['BHD', 3, 1250, 1.25, 'BHD 1.250', '"BHD "#,##0.000'],
])('%s has %d decimals', (currency, digits, minor, major, shown, sheet) => {
  expect(minorUnitDigits(currency)).toBe(digits);
  expect(majorUnits(minor, currency)).toBe(major);
  expect(formatMoney(minor, currency).replace(/\u00a0/g, ' ')).toBe(shown);
  expect(sheetMoneyFormat(currency)).toBe(sheet);
});
