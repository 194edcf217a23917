import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { createApp, type App } from '../http/app';
import type { Config } from '../core/config';
import type { Database } from '../db/database';
import { BadRequestError } from '../core/errors';
import type { RequestContext } from '../core/request-context';
import { asOwner, examples } from './command-support';

/** `timetrack export`: the command, whose work is `exportShifts`. */
export function addExportCommand(program: Command): void {
  program
    .command('export')
    .summary("Write an account's shifts as CSV (as GET /api/1/shifts.csv)")
    .description(
      'Write the shifts of an account as CSV, as GET /api/1/shifts.csv does: the same columns, the ' +
        'same where/order language (docs/json-api.md), streamed page by page. To stdout unless --output.',
    )
    .requiredOption(
      '--owner <login>',
      "the login of the account's owner (every shift of the account)",
    )
    .option(
      '--where <expr>',
      'which shifts, e.g. \'billable = true && start >= "2026-11-01T00:00:00Z"\'',
    )
    .option('--order <expr>', 'their order, e.g. "start desc" (default: creation order)')
    .option(
      '--output <file>',
      'write to this file instead of stdout; replaced only when the export is whole',
    )
    .addHelpText(
      'after',
      examples([
        'timetrack export --owner demo > shifts.csv',
        'timetrack export --owner demo --where "billable = true" --order "start desc" --output billable.csv',
        'timetrack export --owner demo --where \'stop = null || start >= "2026-11-01T00:00:00+01:00"\' --output recent.csv',
      ]),
    )
    .action(async (options: { owner: string; where?: string; order?: string; output?: string }) => {
      await asOwner(options.owner, async (ctx, db, config) => {
        const rows = await exportShifts(
          db,
          config,
          ctx,
          { where: options.where, order: options.order },
          options.output,
        );
        if (options.output !== undefined)
          process.stdout.write(`wrote ${rows} shift(s) to ${options.output}\n`);
      });
    });
}

/**
 * `timetrack export`: the file of GET /api/1/shifts.csv, for a context of the CLI. The app is
 * composed in-process for its executor, so the operations run through the same Apollo server,
 * validation and limits as the route's.
 */
export async function exportShifts(
  db: Database,
  config: Config,
  ctx: RequestContext,
  query: ShiftExportQuery,
  output?: string,
): Promise<number> {
  const target = output === undefined ? undefined : path.resolve(output);
  if (
    target !== undefined &&
    !fs.statSync(path.dirname(target), { throwIfNoEntry: false })?.isDirectory()
  ) {
    throw new BadRequestError(
      `There is no directory ${path.dirname(target)} to write ${path.basename(target)} in`,
    );
  }
  const app = await createApp({ orm: db.orm, config, replicas: db.replicas });
  try {
    return target === undefined
      ? await toStdout(app, ctx, query)
      : await toFile(app, ctx, query, target);
  } finally {
    await app.stop();
  }
}

type ShiftExportQuery = Parameters<App['exportShifts']>[1];

async function toStdout(app: App, ctx: RequestContext, query: ShiftExportQuery): Promise<number> {
  // A reader that goes away (`| head`, EPIPE) ends the export with an error instead of a crash
  // on an unhandled 'error' event, or a wait for a drain that never comes.
  const failed = new AbortController();
  const onError = (error: Error) => failed.abort(error);
  process.stdout.on('error', onError);
  // Through process.stdout.write rather than a pipe into stdout, which a pipe never ends: this
  // stream finishes when the last byte is handed over, and that is when the command is done.
  const out = new Writable({
    write(chunk, _encoding, callback) {
      if (failed.signal.aborted) callback(failed.signal.reason as Error);
      else if (process.stdout.write(chunk)) callback();
      else process.stdout.once('drain', () => callback());
    },
  });
  try {
    const rows = await app.exportShifts(ctx, query, () => out, failed.signal);
    await finished(out, { signal: failed.signal });
    return rows;
  } catch (error) {
    throw failed.signal.aborted ? failed.signal.reason : error;
  } finally {
    process.stdout.off('error', onError);
  }
}

/** A new file beside the target, renamed over it when whole: a failed export never leaves half a file. */
async function toFile(
  app: App,
  ctx: RequestContext,
  query: ShiftExportQuery,
  target: string,
): Promise<number> {
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  const failed = new AbortController();
  let file: fs.WriteStream | undefined;
  const open = () => {
    file = fs.createWriteStream(partial, { flags: 'wx' });
    // A write error (disk full) ends any wait for a drain that would never come.
    file.on('error', (error) => failed.abort(error));
    return file;
  };
  try {
    const rows = await app.exportShifts(ctx, query, open, failed.signal);
    await finished(file!);
    fs.renameSync(partial, target);
    return rows;
  } catch (error) {
    file?.destroy();
    fs.rmSync(partial, { force: true });
    throw failed.signal.aborted ? failed.signal.reason : error;
  }
}
