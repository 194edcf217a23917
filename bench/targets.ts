import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { startFlags } from './start-flags';

/** A server under test, running as a child process of the runner. */
export interface Target {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** The last few kB of its stdout and stderr (to see what a start announced). */
  output(): string;
  stop(): Promise<void>;
}

export const ROOT = path.resolve(__dirname, '..', '..');

/** The service's entry, `timetrack` itself. */
export const SERVICE = path.join(ROOT, 'dist', 'src', 'main.js');

/**
 * The Node flags `npm start` runs the service with (package.json's start script: its V8 heap
 * limits, docs/scaling.md): every service target starts as `npm start` starts it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = startFlags(
  (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    }
  ).scripts.start,
);

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `v20.20.2` for a node binary, or undefined when there is none at that path. */
export function nodeVersion(binary: string): string | undefined {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Starts `node <script> [args]` with a PORT of its own and waits until it answers HTTP. `node` is
 * the binary to run it on: the runner's own by default. The service runs with `npm start`'s flags.
 */
export async function startTarget(
  name: string,
  script: string,
  args: (port: number) => string[],
  env: Record<string, string>,
  node = process.execPath,
): Promise<Target> {
  const port = await freePort();
  const flags = script === SERVICE ? SERVICE_NODE_FLAGS : [];
  const child: ChildProcess = spawn(node, [...flags, script, ...args(port)], {
    cwd: ROOT,
    env: {
      // The scenarios drive one user as hard as the service answers: the cost budgets (a few
      // legacy listings a second per user) would measure themselves. Off unless the runner's own
      // environment turns them on.
      GRAPHQL_COST_BUDGET_PER_USER: '0',
      GRAPHQL_COST_BUDGET_PER_ACCOUNT: '0',
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    // A crash (a native addon's segfault) ends it with a signal and no exit code.
    const ended = child.exitCode ?? child.signalCode;
    if (ended !== null) throw new Error(`${name} exited (${ended}):\n${output}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL'); // a run that goes on without it must not leave it behind
        throw new Error(`${name} did not answer within 120 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    name,
    url,
    pid: child.pid!,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** CPU seconds used so far by a process and its descendants. */
function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const id of treePids(pid)) {
    try {
      const fields = fs.readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

/**
 * Waits until the target is idle (under 5% of a core for half a second), so that requests still
 * queued from the previous run never count against the next one.
 */
export async function quiesce(pid: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let before = treeCpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = treeCpuSeconds(pid);
    if (now - before < 0.025) return;
    before = now;
  }
}

function treePids(pid: number): number[] {
  const pids = [pid];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : [])
        pids.push(...treePids(Number(child)));
    }
  } catch {
    // The process ended meanwhile.
  }
  return pids;
}

/** Resident memory of a process and all its descendants (the embedded database is a child), in MB. */
export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const id of treePids(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return kb / 1024;
}
