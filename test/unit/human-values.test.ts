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
  expect(parseHourlyRate(text)).toBe(cents);
});

test.each(['', 'free', '$', '-5', '$-12'])('hourly rate %j is unreadable', (text) => {
  expect(parseHourlyRate(text)).toBeUndefined();
});
