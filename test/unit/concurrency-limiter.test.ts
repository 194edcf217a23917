import { KeyedConcurrencyLimiter, LimitRefusedError } from '../../src/core/concurrency-limiter';

/**
 * The building block of each account's fair share (issue 20, finding 4): places per key, a bounded
 * queue in arrival order, a deadline for waiting, and leaving the queue when the client hangs up.
 */
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'admitted',
    (error: unknown) => (error instanceof LimitRefusedError ? error.refusal : error),
  );

/** Lets pending promise reactions run (no clock involved). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

test('keys do not share places; past the places callers queue, past the queue they are refused at once', async () => {
  const limiter = new KeyedConcurrencyLimiter<string>({
    perKey: 2,
    queuePerKey: 1,
    maxWaitMs: 60_000,
  });
  const a1 = await limiter.acquire('a');
  await limiter.acquire('a');
  const queued = limiter.acquire('a');
  expect(await refusalOf(limiter.acquire('a'))).toBe('queue-full');
  // Another key is let in at once.
  const b = await limiter.acquire('b');
  expect([limiter.active('a'), limiter.waiting('a'), limiter.active('b')]).toEqual([2, 1, 1]);
  a1();
  await queued;
  expect([limiter.active('a'), limiter.waiting('a')]).toEqual([2, 0]);
  b();
  expect(limiter.active('b')).toBe(0);
});

test('waiters are let in in arrival order, and a release counts once', async () => {
  const limiter = new KeyedConcurrencyLimiter<string>({
    perKey: 1,
    queuePerKey: 10,
    maxWaitMs: 60_000,
  });
  const first = await limiter.acquire('k');
  const order: number[] = [];
  const waiters = [1, 2, 3].map((n) =>
    limiter.acquire('k').then((release) => {
      order.push(n);
      return release;
    }),
  );
  first();
  first(); // a second call gives nothing back twice
  const second = await waiters[0]!;
  await settled();
  expect(order).toEqual([1]);
  second();
  (await waiters[1]!)();
  (await waiters[2]!)();
  expect(order).toEqual([1, 2, 3]);
  expect([limiter.active('k'), limiter.waiting('k')]).toEqual([0, 0]);
});

test('a caller who waited maxWaitMs is refused and leaves the queue', async () => {
  jest.useFakeTimers();
  try {
    const limiter = new KeyedConcurrencyLimiter<string>({
      perKey: 1,
      queuePerKey: 5,
      maxWaitMs: 1_000,
    });
    const held = await limiter.acquire('k');
    const waiting = refusalOf(limiter.acquire('k'));
    jest.advanceTimersByTime(999);
    expect(limiter.waiting('k')).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await waiting).toBe('timed-out');
    expect(limiter.waiting('k')).toBe(0);
    held();
    expect(limiter.active('k')).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});

test('a caller whose client hung up leaves the queue, and the next one moves up', async () => {
  const limiter = new KeyedConcurrencyLimiter<string>({
    perKey: 1,
    queuePerKey: 5,
    maxWaitMs: 60_000,
  });
  const held = await limiter.acquire('k');
  const gone = new AbortController();
  const leaving = refusalOf(limiter.acquire('k', gone.signal));
  const staying = limiter.acquire('k');
  gone.abort();
  expect(await leaving).toBe('aborted');
  expect(limiter.waiting('k')).toBe(1);
  held();
  (await staying)();
  expect([limiter.active('k'), limiter.waiting('k')]).toEqual([0, 0]);
  // Already gone before asking: refused without taking a place.
  expect(await refusalOf(limiter.acquire('k', gone.signal))).toBe('aborted');
});

test('perKey 0 turns the limiter off', async () => {
  const limiter = new KeyedConcurrencyLimiter<string>({
    perKey: 0,
    queuePerKey: 0,
    maxWaitMs: 100,
  });
  const releases = await Promise.all(Array.from({ length: 100 }, () => limiter.acquire('k')));
  expect(releases).toHaveLength(100);
  expect(limiter.active('k')).toBe(0);
});
