import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import type { FromWorker, RendererModule, ToWorker } from './render-pool';

/**
 * The entry of a render pool's worker thread (render-pool.ts): one job at a time, each run by the
 * renderer module the job names, loaded here by its path. It and the renderers import nothing of
 * this project at run time (types only), so the same code runs built (`.mjs`) and from the
 * sources (`.mts`, stripped of its types by Node).
 */

/** Bytes go to the pool in pieces of about this size: pdfkit writes many small ones. */
const CHUNK_BYTES = 64 * 1024;

const port = parentPort!;
/** The job's pending request for a part, answered by the pool's next message. */
let waiting: { readonly job: number; readonly resolve: (message: ToWorker) => void } | undefined;

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'start') {
    void run(message.job, message.renderer);
    return;
  }
  if (waiting?.job !== message.job) return;
  const { resolve } = waiting;
  waiting = undefined;
  resolve(message);
});

// Last of the entry's own work: the pool times the jobs of this thread from here.
send({ type: 'ready' });

async function run(job: number, renderer: string): Promise<void> {
  const output = new Output((bytes) => send({ type: 'chunk', job, bytes }, [bytes.buffer]));
  try {
    const module = (await import(pathToFileURL(renderer).href)) as RendererModule<unknown>;
    await module.render(parts(job, output), (bytes) => output.write(bytes));
    output.flush();
    send({ type: 'done', job });
  } catch (error) {
    send({ type: 'failed', job, message: error instanceof Error ? error.message : String(error) });
  }
}

/** The job's parts, each asked of the pool once what the previous one made has been sent. */
async function* parts(job: number, output: Output): AsyncGenerator<unknown> {
  for (;;) {
    output.flush();
    const answer = await new Promise<ToWorker>((resolve) => {
      waiting = { job, resolve };
      send({ type: 'pull', job });
    });
    if (answer.type === 'end') return;
    if (answer.type !== 'part') throw new Error('the download was abandoned');
    yield answer.part;
  }
}

/**
 * Collects what a renderer writes and sends it in pieces of its own memory (transferred, not
 * copied). No parameter properties here or in any module a worker loads: Node's type stripping
 * only erases types, it does not compile.
 */
class Output {
  private pending: Uint8Array[] = [];
  private size = 0;
  private readonly sendBytes: (bytes: Uint8Array<ArrayBuffer>) => void;

  constructor(sendBytes: (bytes: Uint8Array<ArrayBuffer>) => void) {
    this.sendBytes = sendBytes;
  }

  write(bytes: Uint8Array): void {
    this.pending.push(bytes);
    this.size += bytes.byteLength;
    if (this.size >= CHUNK_BYTES) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    // A fresh buffer: what a library writes may be a slice of a pool shared with other buffers.
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for (const piece of this.pending) {
      bytes.set(piece, offset);
      offset += piece.byteLength;
    }
    this.pending = [];
    this.size = 0;
    this.sendBytes(bytes);
  }
}
