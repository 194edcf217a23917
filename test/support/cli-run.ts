import { runCli } from '../../src/cli';

/** Runs the CLI in-process with an environment, capturing what it prints and its exit code. */
export async function runCliCapturing(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const out = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.env = saved;
  }
}
