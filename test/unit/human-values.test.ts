import { parseHourlyRate, parseTimeLimit } from '../../src/modules/projects/human-values';

test.each([
  ['12h', 43_200],
  ['2h 30m', 9_000],
  ['1:30', 5_400],
  ['10:00:30', 36_030],
  ['90 minutes', 5_400],
  ['1.5 hours', 5_400],
  ['3 days', 259_200],
  ['12', 43_200],
  ['  2H  ', 7_200],
])('time limit %j is %d seconds', (text, seconds) => {
  expect(parseTimeLimit(text)).toBe(seconds);
});

test.each(['', 'soon', '-2h', '1:75', 'h'])('time limit %j is unreadable', (text) => {
  expect(parseTimeLimit(text)).toBeUndefined();
});

test.each([
  ['$85', 8_500],
  ['$12.50', 1_250],
  ['AU$ 90.00', 9_000],
  ['€ 1.234,50', 123_450],
  ['1,200.00', 120_000],
  ['85', 8_500],
])('hourly rate %j is %d cents', (text, cents) => {
  expect(parseHourlyRate(text, 2)).toBe(cents);
});

// In the minor unit of the account's currency (ISO 4217): yen have none, dinars have fils.
test.each([
  ['¥5000', 0, 5_000],
  ['¥5,000', 0, 5_000],
  ['JPY 12000', 0, 12_000],
  ['BHD 1.250', 3, 1_250],
  ['12', 3, 12_000],
])('hourly rate %j with %d decimals is %d minor units', (text, digits, minor) => {
  expect(parseHourlyRate(text, digits)).toBe(minor);
});

test.each(['', 'free', '$', '-5', '$-12'])('hourly rate %j is unreadable', (text) => {
  expect(parseHourlyRate(text, 2)).toBeUndefined();
});
