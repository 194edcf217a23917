import { addDays, duration, mondayOf, wallClock, zonedInstant } from '../../web/src/time';

/**
 * The web app's one rule of wall times (web/src/time.ts): a person's date and time in their zone
 * and the instant the API stores, across changes of the clocks, against the tz database of Node's
 * Intl (the browser's, in the app).
 */
describe('zonedInstant: a wall time in a zone as an instant', () => {
  test.each([
    ['an ordinary winter time', '2026-11-30', '09:00', 'Europe/Berlin', '2026-11-30T08:00:00.000Z'],
    ['an ordinary summer time', '2026-07-01', '09:00', 'Europe/Berlin', '2026-07-01T07:00:00.000Z'],
    ['a half-hour zone', '2026-03-01', '09:00', 'Asia/Kolkata', '2026-03-01T03:30:00.000Z'],
    ['west of Greenwich', '2026-03-08', '09:00', 'America/New_York', '2026-03-08T13:00:00.000Z'],
    [
      'midnight after the spring change',
      '2026-03-30',
      '00:00',
      'Europe/Berlin',
      '2026-03-29T22:00:00.000Z',
    ],
    // The clocks skip 02:00-03:00 on 29 March 2026 in Berlin: the time moves forward by the gap.
    ['a time the clocks skip', '2026-03-29', '02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    // They pass 02:00-03:00 twice on 25 October 2026: its first occurrence (summer time).
    [
      'a time the clocks pass twice',
      '2026-10-25',
      '02:30',
      'Europe/Berlin',
      '2026-10-25T00:30:00.000Z',
    ],
    // More than 12 hours east of UTC: Auckland skips 02:00-03:00 on 27 September 2026 (to +13)…
    [
      'a time the clocks skip, far east',
      '2026-09-27',
      '02:30',
      'Pacific/Auckland',
      '2026-09-26T14:30:00.000Z',
    ],
    // …and passes 02:00-03:00 twice on 5 April 2026 (back to +12): the first is at +13.
    [
      'a time the clocks pass twice, far east',
      '2026-04-05',
      '02:30',
      'Pacific/Auckland',
      '2026-04-04T13:30:00.000Z',
    ],
    [
      'the hour after the autumn change',
      '2026-10-25',
      '03:30',
      'Europe/Berlin',
      '2026-10-25T02:30:00.000Z',
    ],
  ])('%s', (_what, date, time, zone, instant) => {
    expect(zonedInstant(date, time, zone).toISOString()).toBe(instant);
  });

  test('a week across the autumn change has its 25-hour Sunday', () => {
    const monday = mondayOf('2026-10-25');
    expect(monday).toBe('2026-10-19');
    const start = zonedInstant(monday, '00:00', 'Europe/Berlin').getTime();
    const end = zonedInstant(addDays(monday, 7), '00:00', 'Europe/Berlin').getTime();
    expect((end - start) / 3_600_000).toBe(7 * 24 + 1);
  });

  test('wallClock reads an instant back as the wall time it was', () => {
    expect(wallClock('2026-10-25T00:30:00Z', 'Europe/Berlin')).toEqual({
      date: '2026-10-25',
      time: '02:30',
    });
    expect(wallClock('2026-10-25T01:30:00Z', 'Europe/Berlin')).toEqual({
      date: '2026-10-25',
      time: '02:30',
    });
    expect(wallClock('2026-12-31T23:30:00Z', 'Asia/Kolkata')).toEqual({
      date: '2027-01-01',
      time: '05:00',
    });
  });
});

test('durations read as h:mm, negative ones with a sign', () => {
  expect(duration(0)).toBe('0:00');
  expect(duration(9_000)).toBe('2:30');
  expect(duration(-1_800)).toBe('-0:30');
  expect(duration(36_000 + 59)).toBe('10:00');
});
