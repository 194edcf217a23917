import { once } from 'node:events';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '../../src/core/errors';
import { currentLogger, type Logger } from '../../src/core/logger';

/** The documents rendered in the pool, as the metrics and the error messages name them. */
export type RenderFormat = 'pdf' | 'xlsx';

/**
 * How a job ended: `rendered`; `failed` (its renderer threw, its thread died or it ran out of
 * time); `abandoned` (the download stopped first: the client left, or a page of rows was refused).
 */
export type RenderOutcome = 'rendered' | 'failed' | 'abandoned';

/** From the pool to a worker. After `start`, each message answers the worker's last `pull`. */
export type ToWorker =
  | { readonly type: 'start'; readonly job: number; readonly renderer: string }
  | { readonly type: 'part'; readonly job: number; readonly part: unknown }
  | { readonly type: 'end'; readonly job: number }
  | { readonly type: 'abort'; readonly job: number };

/** From a worker to the pool. */
export type FromWorker =
  /** The thread has started and loaded its entry: from here on, the pool times its answers. */
  | { readonly type: 'ready' }
  | { readonly type: 'pull'; readonly job: number }
  | { readonly type: 'chunk'; readonly job: number; readonly bytes: Uint8Array }
  | { readonly type: 'done'; readonly job: number }
  | { readonly type: 'failed'; readonly job: number; readonly message: string };

/**
 * What a renderer module exports. It runs in a worker thread and is loaded there by its path, so it
 * imports nothing of this project at run time (types only): node built-ins and libraries.
 */
export interface RendererModule<Part> {
  /** Writes one document from the parts, asking for each in turn; `write` hands bytes out. */
  render(parts: AsyncIterable<Part>, write: (bytes: Uint8Array) => void): Promise<void>;
}

/** One document to render in the pool. */
export interface RenderJob<Part> {
  readonly format: RenderFormat;
  /** The renderer module's path (`modulePath`). */
  readonly renderer: string;
  /** What the renderer is handed, a part whenever it asks for the next one. */
  readonly parts: AsyncIterable<Part>;
  /** The destination, opened just before the first byte and ended after the last. */
  readonly open: () => NodeJS.WritableStream;
  /** A client that hung up: the job stops at the renderer's next request for a part. */
  readonly signal?: AbortSignal;
}

export interface RenderPoolOptions {
  /** Worker threads at most, started on demand (RENDER_THREADS). */
  readonly threads: number;
  /** How long a worker may work without a word before it is stopped (RENDER_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Logs failures outside any request's scope. */
  readonly logger?: Logger;
}

export interface RenderPoolStats {
  /** Worker threads alive. */
  readonly threads: number;
  /** Jobs a worker is on, and jobs waiting for one. */
  readonly running: number;
  readonly queued: number;
  /** Jobs ended, by format and outcome (those that happened). */
  readonly ended: readonly {
    readonly format: RenderFormat;
    readonly outcome: RenderOutcome;
    readonly count: number;
  }[];
}

/**
 * The path of the ES module `name` beside `dirname`, as this code runs: `.mjs` when built, `.mts`
 * from the sources (ts-jest), which a worker thread loads with Node's own type stripping. The
 * worker's code is an ES module either way (an `.mts` file compiles to `.mjs`), so Node never has
 * to guess a file's module type.
 */
export function modulePath(dirname: string, name: string): string {
  return path.join(dirname, `${name}${path.extname(__filename) === '.ts' ? '.mts' : '.mjs'}`);
}

const WORKER_ENTRY = modulePath(__dirname, 'render-worker');
/**
 * A worker's heap: a renderer holds a table of at most PDF_ROWS_MAX short rows, or a workbook's
 * current part, so a thread that grows past this is stopped (its job fails) and the process lives on.
 */
const WORKER_HEAP_MB = 256;
const FORMAT_NAMES: Record<RenderFormat, string> = { pdf: 'PDF file', xlsx: 'Excel workbook' };

/** A job in the pool: queued, then on a worker until it settles. */
class Job<Part = unknown> {
  readonly iterator: AsyncIterator<Part>;
  /** Every destination here (a response, a file) is a Writable stream. */
  destination: Writable | undefined;
  settled = false;
  readonly done: Promise<void>;
  /** Resolves when the job settles, whichever way. */
  readonly over: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: unknown) => void;

  constructor(
    readonly id: number,
    readonly spec: RenderJob<Part>,
    /** The logger of the request that asked for the document. */
    readonly log: Logger,
  ) {
    this.iterator = spec.parts[Symbol.asyncIterator]();
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.over = this.done.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * The next part; nothing once the job has settled (a hang-up does not wait for the rows). Read
   * only when the worker asks: reading the next page while the worker renders the last makes an
   * export faster but keeps the event loop busier, and other accounts' requests wait longer.
   */
  async next(): Promise<IteratorResult<Part> | undefined> {
    const next = this.iterator.next();
    // Still read after a hang-up, and a failure then is nobody's to hear.
    next.catch(() => undefined);
    return Promise.race([next, this.over.then(() => undefined)]);
  }

  write(bytes: Uint8Array): void {
    if (this.settled) return;
    this.opened().write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Waits until the destination has taken what was written (the client reads the file). */
  async drained(): Promise<void> {
    // Asked now, not remembered from a write: a drain that came meanwhile is not waited for again.
    if (this.destination?.writableNeedDrain)
      await once(this.destination, 'drain', { signal: this.spec.signal });
  }

  succeed(): void {
    if (this.settled) return;
    this.settled = true;
    this.opened().end();
    this.resolve();
  }

  private opened(): Writable {
    return (this.destination ??= this.spec.open() as Writable);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    // The download's page source stops too (it may hold a renewed context for the next page).
    void this.iterator.return?.().catch(() => undefined);
    this.reject(error);
  }

  /** A failure of the renderer itself, as the client sees it: why, in a sentence, no internals. */
  renderFailed(reason: string, detail?: unknown): void {
    if (this.settled) return;
    this.log.error(
      { err: detail, format: this.spec.format, renderer: this.spec.renderer },
      `render pool: ${reason}`,
    );
    this.fail(
      new ServiceUnavailableError(
        `The ${FORMAT_NAMES[this.spec.format]} could not be rendered (${reason}); try again shortly, or download the CSV file`,
      ),
    );
  }
}

/** A worker thread and the job it is on. */
interface Slot {
  readonly worker: Worker;
  job: Job | undefined;
  /** Set while the worker has work to do and the pool waits for its word. */
  timer: NodeJS.Timeout | undefined;
  /** Left the pool (died, stopped, or timed out); its remaining events are ignored. */
  gone: boolean;
  /**
   * Started and ready to work. A new thread's start (a V8 isolate, the entry's modules) is no
   * renderer being slow: on a busy machine it took longer than a short timeout, and the job failed.
   */
  ready: boolean;
}

/**
 * Worker threads (node:worker_threads) that render documents, so that laying out a PDF or zipping
 * a workbook never holds the event loop that answers every account's requests. Each job is a
 * conversation: the worker asks for the next part when it wants one, the pool reads it from the
 * download (a page of rows, cut into parts) and hands it over, and passes the bytes the worker
 * sends on to the destination, waiting for it to drain before the next part, so memory holds a
 * part whatever the size of the file. A job waits in order for a free worker; the heavy-work lane
 * (auth/fair-share-limiter) already bounds how many run per account and in all.
 *
 * Any failure of a worker (its renderer throws, its thread dies or exceeds its heap, it works
 * for RENDER_TIMEOUT_MS without a word) fails its job with a 503 whose message says which
 * document could not be rendered; a dead or stopped thread is replaced by the next job.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly ended = new Map<RenderFormat, Map<RenderOutcome, number>>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  /** Renders one document into its destination; resolves once the last byte is handed to it. */
  render<Part>(spec: RenderJob<Part>): Promise<void> {
    const job = new Job(this.nextId++, spec, currentLogger(this.options.logger));
    if (this.closed) {
      job.fail(new ServiceUnavailableError('The service is shutting down; try again shortly'));
      return job.done;
    }
    if (spec.signal?.aborted) {
      job.fail(spec.signal.reason);
      return job.done;
    }
    spec.signal?.addEventListener('abort', () => this.abandon(job as Job), { once: true });
    this.queue.push(job as Job);
    this.pump();
    return job.done;
  }

  stats(): RenderPoolStats {
    return {
      threads: this.slots.length,
      running: this.slots.filter((slot) => slot.job).length,
      queued: this.queue.length,
      ended: [...this.ended].flatMap(([format, outcomes]) =>
        [...outcomes].map(([outcome, count]) => ({ format, outcome, count })),
      ),
    };
  }

  /** Refuses new jobs, fails the waiting ones, and stops every thread (the app's stop). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.fail(new ServiceUnavailableError('The service is shutting down; try again shortly'));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.gone = true;
      this.disarm(slot);
      if (slot.job) {
        this.count(slot.job, 'failed');
        slot.job.renderFailed('the service is shutting down');
      }
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Starts waiting jobs on free workers, starting a worker where the pool has room. */
  private pump(): void {
    while (this.queue.length > 0) {
      const slot =
        this.slots.find((candidate) => !candidate.job) ??
        (this.slots.length < this.options.threads ? this.spawn() : undefined);
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      this.send(slot, { type: 'start', job: job.id, renderer: job.spec.renderer });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // An idle worker never keeps the process alive (a CLI command, a test that forgot to stop).
    worker.unref();
    const slot: Slot = { worker, job: undefined, timer: undefined, gone: false, ready: false };
    worker.on('message', (message: FromWorker) => this.receive(slot, message));
    worker.on('error', (error) => this.lose(slot, 'its renderer stopped', error));
    worker.on('exit', (code) => this.lose(slot, 'its renderer stopped', { exitCode: code }));
    this.slots.push(slot);
    return slot;
  }

  private receive(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      if (slot.job && !slot.gone) this.arm(slot);
      return;
    }
    const job = slot.job;
    if (slot.gone || !job || message.job !== job.id) return;
    switch (message.type) {
      case 'chunk':
        // Progress while the worker has work to do; bytes it flushes while it waits for a part
        // (a workbook's deflate finishing) leave the pool's turn alone.
        if (slot.timer) this.arm(slot);
        job.write(message.bytes);
        return;
      case 'pull':
        this.disarm(slot);
        void this.answerPull(slot, job);
        return;
      case 'done':
        this.count(job, job.settled ? 'abandoned' : 'rendered');
        job.succeed();
        this.release(slot);
        return;
      case 'failed':
        this.count(job, job.settled ? 'abandoned' : 'failed');
        job.renderFailed('its renderer failed', message.message);
        this.release(slot);
        return;
    }
  }

  /** The worker wants the next part: once the destination has drained, read it and hand it over. */
  private async answerPull(slot: Slot, job: Job): Promise<void> {
    let answer: ToWorker;
    try {
      if (!job.settled) await job.drained();
      const next = job.settled ? undefined : await job.next();
      answer =
        job.settled || !next
          ? { type: 'abort', job: job.id }
          : next.done
            ? { type: 'end', job: job.id }
            : { type: 'part', job: job.id, part: next.value };
    } catch (error) {
      // The rows could not be read (an operation refused them) or the client left: the job ends
      // with that error, and the worker drops the document.
      job.fail(error);
      answer = { type: 'abort', job: job.id };
    }
    if (slot.gone || slot.job !== job) return;
    this.send(slot, answer);
  }

  private send(slot: Slot, message: ToWorker): void {
    // A thread still starting is timed from when it is ready (the 'ready' message arms it).
    if (slot.ready) this.arm(slot);
    slot.worker.postMessage(message);
  }

  /** The worker has work to do: it must speak (bytes, a request for a part, the end) in time. */
  private arm(slot: Slot): void {
    this.disarm(slot);
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      this.lose(slot, `it took longer than ${this.options.timeoutMs} ms`);
      void slot.worker.terminate();
    }, this.options.timeoutMs);
  }

  private disarm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
  }

  /** The worker finished its job (or dropped it) and takes the next. */
  private release(slot: Slot): void {
    this.disarm(slot);
    slot.job = undefined;
    this.pump();
  }

  /** The worker is gone (died, or stopped for its time): its job fails, the next job starts another. */
  private lose(slot: Slot, reason: string, detail?: unknown): void {
    if (slot.gone) return;
    slot.gone = true;
    this.disarm(slot);
    this.slots.splice(this.slots.indexOf(slot), 1);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      this.count(job, job.settled ? 'abandoned' : 'failed');
      job.renderFailed(reason, detail);
    } else if (!this.closed) {
      (this.options.logger ?? currentLogger()).error(
        { err: detail },
        `render pool: an idle worker ended (${reason})`,
      );
    }
    if (!this.closed) this.pump();
  }

  /** The client left or the rows failed: a queued job leaves the queue; a running one stops at its next part. */
  private abandon(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.count(job, 'abandoned');
    }
    job.fail(job.spec.signal?.reason);
  }

  private count(job: Job, outcome: RenderOutcome): void {
    const outcomes = this.ended.get(job.spec.format) ?? new Map<RenderOutcome, number>();
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    this.ended.set(job.spec.format, outcomes);
  }
}
