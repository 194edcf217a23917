import { DriverException } from '@mikro-orm/core';
import { FairConnectionScheduler } from '../../src/db/connection-lanes';
import { mapDatabaseError } from '../../src/db/database-errors';

/**
 * Who gets the pool's next connection (issue 20, finding 4): the party holding the fewest, the
 * longest waiting among equals; an account never more than its cap; nobody more than the pool.
 */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function track(lanes: FairConnectionScheduler, party: number | 'none', log: string[]) {
  return lanes.acquire(party).then(
    () => log.push(String(party)),
    (error: Error) => log.push(`${party}: ${error.message}`),
  );
}

// Each test's scheduler is closed after it: a waiter left queued would otherwise fail when its
// timer fires, in whichever test file the worker runs by then.
const schedulers: FairConnectionScheduler[] = [];
function scheduler(capacity: number, perAccount: number, maxWaitMs: number) {
  const made = new FairConnectionScheduler(capacity, perAccount, maxWaitMs);
  schedulers.push(made);
  return made;
}
afterEach(() => {
  for (const made of schedulers.splice(0)) made.close();
});

test('a connection coming back goes to the party holding the fewest, not to the longest queue', async () => {
  const lanes = scheduler(2, 2, 60_000);
  const log: string[] = [];
  // Account 1 floods: two connections taken, three more queries queued.
  for (let i = 0; i < 5; i++) void track(lanes, 1, log);
  await settled();
  expect(log).toEqual(['1', '1']);
  // Account 2 arrives last, and is next.
  void track(lanes, 2, log);
  await settled();
  lanes.release(1);
  await settled();
  expect(log).toEqual(['1', '1', '2']);
  lanes.release(1);
  await settled();
  expect(log).toEqual(['1', '1', '2', '1']);
  expect([lanes.active(1), lanes.active(2), lanes.waiting(1)]).toEqual([1, 1, 2]);
});

test('an account holds at most its cap, even with connections free; work of no account is not capped', async () => {
  const lanes = scheduler(4, 2, 60_000);
  const log: string[] = [];
  for (let i = 0; i < 3; i++) void track(lanes, 7, log);
  for (let i = 0; i < 2; i++) void track(lanes, 'none', log);
  await settled();
  expect(log).toEqual(['7', '7', 'none', 'none']);
  expect(lanes.waiting(7)).toBe(1);
  expect(lanes.waiting()).toBe(1);
  lanes.release('none');
  await settled();
  // Free, but account 7 is at its cap.
  expect(lanes.waiting(7)).toBe(1);
  lanes.release(7);
  await settled();
  expect(log).toEqual(['7', '7', 'none', 'none', '7']);
});

test('a wait longer than the acquire timeout is a 503, also as the ORM wraps it, and leaves the queue', async () => {
  jest.useFakeTimers();
  try {
    const lanes = scheduler(1, 1, 1_000);
    await lanes.acquire(1);
    const refusal = lanes.acquire(2).then(
      () => undefined,
      (error: Error) => error,
    );
    jest.advanceTimersByTime(1_000);
    const error = (await refusal)!;
    expect(mapDatabaseError(error)?.code).toBe('SERVICE_UNAVAILABLE');
    // MikroORM wraps what a query throws in a DriverException: still a 503, never a 500.
    expect(mapDatabaseError(new DriverException(error))?.code).toBe('SERVICE_UNAVAILABLE');
    expect(lanes.waiting()).toBe(0);
    lanes.release(1);
    expect(lanes.active(1)).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});

test('closed with the pool: the queued fail at once with a 503, and so does every later query', async () => {
  const lanes = scheduler(1, 1, 60_000);
  const log: string[] = [];
  void track(lanes, 1, log);
  void track(lanes, 2, log);
  void track(lanes, 'none', log);
  await settled();
  expect(log).toEqual(['1']);
  lanes.close();
  await settled();
  const closed = 'Unable to acquire a connection: the pool is closed';
  expect(log).toEqual(['1', `2: ${closed}`, `none: ${closed}`]);
  expect(lanes.waiting()).toBe(0);
  const later = await lanes.acquire(3).then(
    () => undefined,
    (error: Error) => error,
  );
  expect(mapDatabaseError(later)?.code).toBe('SERVICE_UNAVAILABLE');
  expect(mapDatabaseError(new DriverException(later!))?.code).toBe('SERVICE_UNAVAILABLE');
});
