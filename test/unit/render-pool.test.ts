import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { BadRequestError, ServiceUnavailableError } from '../../src/core/errors';
import { createLogger } from '../../src/core/logger';
import { RenderPool } from '../../rest-facade';

/**
 * The render pool (rest-facade/render/render-pool.ts) with a scripted renderer in real worker
 * threads: documents are written off the main thread, in order, and every way a renderer can fail
 * (it throws, its thread ends, it never answers, it exhausts its heap) ends the job with a 503
 * that says which document could not be rendered, never a hang, and leaves the pool serving.
 */
const RENDERER = path.join(__dirname, '..', 'fixtures', 'renderers', 'scripted-renderer.mts');

const logger = createLogger('silent');
let pool: RenderPool;
afterEach(() => pool?.close());

/** A destination that keeps what it is given, and counts how often it was opened. */
function destination() {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  let opened = 0;
  return {
    open: () => {
      opened += 1;
      return stream;
    },
    text: () => Buffer.concat(chunks).toString(),
    opened: () => opened,
  };
}

async function* listed(parts: readonly string[]): AsyncGenerator<string> {
  yield* parts;
}

function render(parts: readonly string[] | AsyncIterable<string>, signal?: AbortSignal) {
  const target = destination();
  const done = pool.render({
    format: 'pdf',
    renderer: RENDERER,
    parts: Array.isArray(parts) ? listed(parts) : (parts as AsyncIterable<string>),
    open: target.open,
    signal,
  });
  return { done, target };
}

function ended(outcome: string): number {
  return pool.stats().ended.find((e) => e.format === 'pdf' && e.outcome === outcome)?.count ?? 0;
}

test('a document is written in a worker thread, in order, into its destination', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  const { done, target } = render(['thread', 'a', 'b', 'c']);
  await done;
  const [, thread] = /^thread (\d+);abc$/.exec(target.text()) ?? [];
  // The main thread's id is 0.
  expect(Number(thread)).toBeGreaterThan(0);
  expect(target.opened()).toBe(1);
  expect(ended('rendered')).toBe(1);
});

test('a destination that fills and drains between two parts does not stall the document', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  // Like a socket: 100,000 bytes fill its buffer (the write answers false) and it drains a turn
  // later, before the worker asks for the next part. The pool must ask the destination then, not
  // remember the full write and wait for a drain that has come and gone.
  const chunks: Buffer[] = [];
  const socketLike = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      setImmediate(done);
    },
  });
  await pool.render({
    format: 'xlsx',
    renderer: RENDERER,
    parts: listed(['large', 'large', 'end']),
    open: () => socketLike,
  });
  expect(Buffer.concat(chunks).toString()).toBe(`${'.'.repeat(200_000)}end`);
});

test('jobs beyond the threads wait their turn, and each gets its own document', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  const jobs = ['one', 'two', 'three'].map((word) => render([word, word]));
  expect(pool.stats()).toMatchObject({ threads: 1, running: 1, queued: 2 });
  await Promise.all(jobs.map((job) => job.done));
  expect(jobs.map((job) => job.target.text())).toEqual(['oneone', 'twotwo', 'threethree']);
  expect(pool.stats()).toMatchObject({ threads: 1, running: 0, queued: 0 });
});

test.each([
  ['throws', 'throw', 60_000, /\(its renderer failed\)/],
  ['ends its thread', 'exit', 60_000, /\(its renderer stopped\)/],
  ['exhausts its heap', 'heap', 60_000, /\(its renderer stopped\)/],
  ['never answers', 'spin', 1_000, /\(it took longer than 1000 ms\)/],
])(
  'a renderer that %s fails its job with a 503, and the pool serves the next',
  async (_what, instruction, timeoutMs, reason) => {
    pool = new RenderPool({ threads: 1, timeoutMs, logger });
    const failing = render(['before', instruction, 'after']);
    const error = await failing.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    const { code, message } = error as ServiceUnavailableError;
    expect(code).toBe('SERVICE_UNAVAILABLE');
    expect(message).toMatch(reason);
    expect(message).toMatch(/^The PDF file could not be rendered .*; try again shortly/);
    // Nothing of the worker's insides reaches the client: no stack, no file names.
    expect(message).not.toMatch(/\bat |\.mts|\.js/);
    expect(ended('failed')).toBe(1);

    const next = render(['fine']);
    await next.done;
    expect(next.target.text()).toBe('fine');
    expect(pool.stats().threads).toBe(1);
  },
);

test('a refusal of the rows ends the job with that refusal, before any byte', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  async function* refused(): AsyncGenerator<string> {
    yield* [];
    throw new BadRequestError('a PDF summary holds at most 2000 rows');
  }
  const { done, target } = render(refused());
  await expect(done).rejects.toThrow(BadRequestError);
  expect(target.opened()).toBe(0);
  expect(ended('abandoned')).toBe(0);
  // The worker dropped the document and takes the next.
  const next = render(['next']);
  await next.done;
  expect(next.target.text()).toBe('next');
});

test('a client that hangs up while the rows are read stops the job; the worker is free again', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  const hangUp = new AbortController();
  let reading!: () => void;
  const waiting = new Promise<void>((resolve) => (reading = resolve));
  async function* slow(): AsyncGenerator<string> {
    yield 'first';
    reading();
    // Rows that never come: only the hang-up ends this job.
    await new Promise(() => undefined);
  }
  const { done } = render(slow(), hangUp.signal);
  await waiting;
  hangUp.abort(new Error('the client went away'));
  await expect(done).rejects.toThrow('the client went away');
  const next = render(['after']);
  await next.done;
  expect(next.target.text()).toBe('after');
  expect(pool.stats().threads).toBe(1);
  expect(ended('abandoned')).toBe(1);
});

test('close stops every thread and refuses what waits and what comes', async () => {
  pool = new RenderPool({ threads: 1, timeoutMs: 60_000, logger });
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  async function* endless(): AsyncGenerator<string> {
    yield 'first';
    started();
    await new Promise(() => undefined);
  }
  const first = render(endless());
  const queued = render(['queued']);
  const outcomes = Promise.allSettled([first.done, queued.done]);
  await running;
  await pool.close();
  for (const outcome of await outcomes) {
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
  }
  expect(pool.stats()).toMatchObject({ threads: 0, running: 0, queued: 0 });
  await expect(render(['late']).done).rejects.toThrow(/shutting down/);
});
