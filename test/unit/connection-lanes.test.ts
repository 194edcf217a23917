import { DriverException } from '@mikro-orm/core';
import { FairConnectionScheduler } from '../../src/db/connection-lanes';
import { mapDatabaseError } from '../../src/db/database-errors';

/**
 * Who gets the pool's next connection (issue 20, finding 4): the party holding the fewest, the
 * longest waiting among equals; an account never more than its cap; nobody more than the pool.
 */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function track(scheduler: FairConnectionScheduler, party: number | 'none', log: string[]) {
  return scheduler.acquire(party).then(() => {
    log.push(String(party));
  });
}

test('a connection coming back goes to the party holding the fewest, not to the longest queue', async () => {
  const scheduler = new FairConnectionScheduler(2, 2, 60_000);
  const log: string[] = [];
  // Account 1 floods: two connections taken, three more queries queued.
  for (let i = 0; i < 5; i++) void track(scheduler, 1, log);
  await settled();
  expect(log).toEqual(['1', '1']);
  // Account 2 arrives last, and is next.
  void track(scheduler, 2, log);
  await settled();
  scheduler.release(1);
  await settled();
  expect(log).toEqual(['1', '1', '2']);
  scheduler.release(1);
  await settled();
  expect(log).toEqual(['1', '1', '2', '1']);
  expect([scheduler.active(1), scheduler.active(2), scheduler.waiting(1)]).toEqual([1, 1, 2]);
});

test('an account holds at most its cap, even with connections free; work of no account is not capped', async () => {
  const scheduler = new FairConnectionScheduler(4, 2, 60_000);
  const log: string[] = [];
  for (let i = 0; i < 3; i++) void track(scheduler, 7, log);
  for (let i = 0; i < 2; i++) void track(scheduler, 'none', log);
  await settled();
  expect(log).toEqual(['7', '7', 'none', 'none']);
  expect(scheduler.waiting(7)).toBe(1);
  expect(scheduler.waiting()).toBe(1);
  scheduler.release('none');
  await settled();
  // Free, but account 7 is at its cap.
  expect(scheduler.waiting(7)).toBe(1);
  scheduler.release(7);
  await settled();
  expect(log).toEqual(['7', '7', 'none', 'none', '7']);
});

test('a wait longer than the acquire timeout is a 503, also as the ORM wraps it, and leaves the queue', async () => {
  jest.useFakeTimers();
  try {
    const scheduler = new FairConnectionScheduler(1, 1, 1_000);
    await scheduler.acquire(1);
    const refusal = scheduler.acquire(2).then(
      () => undefined,
      (error: Error) => error,
    );
    jest.advanceTimersByTime(1_000);
    const error = (await refusal)!;
    expect(mapDatabaseError(error)?.code).toBe('SERVICE_UNAVAILABLE');
    // MikroORM wraps what a query throws in a DriverException: still a 503, never a 500.
    expect(mapDatabaseError(new DriverException(error))?.code).toBe('SERVICE_UNAVAILABLE');
    expect(scheduler.waiting()).toBe(0);
    scheduler.release(1);
    expect(scheduler.active(1)).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});
