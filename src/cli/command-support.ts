import parseDuration from 'parse-duration';
import { InvalidArgumentError } from 'commander';
import { Staff } from '../modules/staff';
import { loadConfig, type Config } from '../core/config';
import { openDatabase, type Database } from '../db/database';
import { AppError } from '../core/errors';
import { contextForViewer } from '../graphql/context';
import { type RequestContext } from '../core/request-context';
import { StaffType } from '../modules/common';

// What the commands share: their help's examples, the database opened for one command, the owner
// a command acts as, and the option values they parse.

/** The "Examples:" section of a command's help. */
export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** Runs `work` on the database, opened (and migrated) for it and closed after it. */
export async function withDatabase(work: (db: Database) => Promise<void>): Promise<void> {
  const db = await openDatabase(loadConfig());
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

/** Runs `work` as the owner with this login, as if the owner had called the GraphQL API. */
export async function asOwner(
  login: string,
  work: (ctx: RequestContext, db: Database, config: Config) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const owner = await db.orm.em
      .fork()
      .findOne(Staff, { login, type: StaffType.OWNER }, { filters: false });
    if (!owner) throw new AppError('NOT_FOUND', `No account owner has the login ${login}`);
    const viewer = {
      id: owner.id,
      uuid: owner.uuid,
      login: owner.login,
      type: owner.type,
      accountId: owner.account.id,
      // The owner reads money whatever the setting for staff.
      staffSeeMoney: false,
    };
    await work(contextForViewer(db.orm, config, viewer), db, config);
  } finally {
    await db.close();
  }
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A duration as people write one (`90d`, `1y`, `36h`), in whole seconds. */
export function duration(value: string): number {
  const seconds = parseDuration(value, 's');
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError('must be a duration such as 8h, 90d or 1y');
  return Math.round(seconds);
}

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export function positiveNumber(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('must be a positive number');
  return Number(value);
}
