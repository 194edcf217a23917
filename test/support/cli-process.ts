import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

/** The built CLI (`npm run build` first). */
const MAIN = path.join(__dirname, '..', '..', 'dist', 'src', 'main.js');

/** A `timetrack` process started by a test, with everything it has printed so far. */
export interface Spawned {
  name: string;
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** The exit code; -1 for a death by signal. */
  exited: Promise<number | null>;
}

/** Starts `timetrack <args>` with exactly `env`. */
export function runCli(name: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [MAIN, ...args], { env });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return { name, child, output: () => output, exited };
}

/**
 * Resolves as soon as `pattern` shows in the output (checked on each chunk the process prints, not
 * on a timer); fails at once if the process exits first, or after `timeoutMs`.
 */
export function waitForOutput(
  pattern: RegExp,
  spawned: Spawned,
  timeoutMs = 60_000,
): Promise<RegExpMatchArray> {
  const { child } = spawned;
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      child.off('close', exited);
      outcome();
    };
    // The listeners of runCli append each chunk first (they were added before these).
    const check = () => {
      const match = pattern.exec(spawned.output());
      if (match) settle(() => resolve(match));
    };
    const exited = () =>
      settle(() =>
        reject(
          new Error(
            `${spawned.name} exited (${child.exitCode}) before ${pattern}; output:\n${spawned.output()}`,
          ),
        ),
      );
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new Error(
              `timed out waiting for ${pattern} from ${spawned.name}; output:\n${spawned.output()}`,
            ),
          ),
        ),
      timeoutMs,
    );
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    // 'close', not 'exit': the last lines printed before the exit have been read by then.
    child.on('close', exited);
    check();
    if (child.exitCode !== null && child.stdout.closed && child.stderr.closed) exited();
  });
}

/** SIGTERM, then the exit; SIGKILL if it does not come within `graceMs`. Resolves with the code. */
export async function stopCli(spawned: Spawned, graceMs: number): Promise<number | null> {
  if (spawned.child.exitCode !== null || spawned.child.signalCode !== null) return spawned.exited;
  spawned.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>(
    (resolve) => (timer = setTimeout(() => resolve('late'), graceMs)),
  );
  const outcome = await Promise.race([spawned.exited, late]);
  clearTimeout(timer);
  if (outcome !== 'late') return outcome;
  spawned.child.kill('SIGKILL');
  await spawned.exited;
  throw new Error(
    `${spawned.name} did not stop within ${graceMs / 1000} s of SIGTERM; output:\n${spawned.output()}`,
  );
}
