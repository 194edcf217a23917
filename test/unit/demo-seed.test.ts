import { DateTime } from 'luxon';
import { planDemo } from '../../src/cli/demo-seed';

/** The demo's plan is pure: checked here without a database (the seed itself: test/integration/cli.test.ts). */
const now = new Date('2026-11-25T10:30:00Z');

test('the same day gives the same plan', () => {
  expect(planDemo(now, 'Europe/Berlin')).toEqual(planDemo(new Date(now), 'Europe/Berlin'));
});

test('weekdays of the last three weeks, in local working hours, never overlapping for one person', () => {
  const plan = planDemo(now, 'Europe/Berlin');
  expect(plan.shifts.length).toBeGreaterThan(100);
  const byPerson = new Map<string, { start: Date; stop: Date }[]>();
  for (const shift of plan.shifts) {
    const zone = shift.person === 'jordan' ? 'America/New_York' : 'Europe/Berlin';
    const start = DateTime.fromJSDate(shift.start, { zone });
    const stop = DateTime.fromJSDate(shift.stop, { zone });
    expect(start.weekday).toBeLessThanOrEqual(5);
    expect(start.hour).toBeGreaterThanOrEqual(8);
    expect(stop.hour + stop.minute / 60).toBeLessThanOrEqual(19);
    expect(stop.hasSame(start, 'day')).toBe(true);
    expect(shift.stop.getTime()).toBeGreaterThan(shift.start.getTime());
    expect(shift.stop.getTime()).toBeLessThan(now.getTime());
    expect(now.getTime() - shift.start.getTime()).toBeLessThanOrEqual(22 * 86_400_000);
    byPerson.set(shift.person, [...(byPerson.get(shift.person) ?? []), shift]);
  }
  expect([...byPerson.keys()].sort()).toEqual(['alex', 'jordan', 'morgan', 'owner', 'sam']);
  for (const shifts of byPerson.values()) {
    for (let i = 1; i < shifts.length; i++)
      expect(shifts[i]!.start.getTime()).toBeGreaterThanOrEqual(shifts[i - 1]!.stop.getTime());
  }
});

test('limits follow the hours: one project nearly overdue (at least 90%, not over), the others comfortable', () => {
  for (const zone of ['Europe/Berlin', 'Pacific/Auckland', 'America/Los_Angeles']) {
    const plan = planDemo(now, zone);
    const support = plan.seconds.support / plan.limits.support!;
    expect(support).toBeGreaterThanOrEqual(0.9);
    expect(support).toBeLessThan(1);
    expect(plan.seconds.website / plan.limits.website!).toBeLessThan(0.6);
    expect(plan.seconds.shop / plan.limits.shop!).toBeLessThan(0.5);
    expect(plan.limits.brand).toBeUndefined();
    expect(plan.running.start.getTime()).toBeLessThan(now.getTime());
  }
});
