import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { VIEWER_COLUMNS, viewerFromRow, type Viewer, type ViewerRow } from '../core/viewer';

/**
 * What a connection signed in with, kept so it can be asked again whether it still holds. A
 * password is remembered as a digest of the stored hash it verified against (never the password):
 * a new password changes the hash.
 */
export type CredentialGrant =
  | {
      readonly scheme: 'password';
      readonly userId: number;
      readonly login: string;
      readonly hashDigest: string;
    }
  | { readonly scheme: 'oauth2'; readonly tokenHash: string }
  | { readonly scheme: 'oauth1'; readonly tokenKey: string };

/** The digest of a stored password hash that a password grant keeps. */
export function passwordHashDigest(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64');
}

type GrantRow = ViewerRow & { password_hash?: string; grant_key?: string };

/**
 * Answers who a grant authenticates now: the user as the database has them, or undefined when the
 * grant would no longer sign in (user disabled or deleted; password or login changed; token
 * revoked or expired, or given under a password since changed: its credentials version is older
 * than the user's). Checks arriving together (one event heard by many subscribers, a sweep of
 * every socket) are answered with one query per scheme; nothing is cached, each check reads.
 */
export class CredentialCheck {
  private readonly loader: DataLoader<CredentialGrant, Viewer | undefined>;

  constructor(private readonly orm: MikroORM) {
    this.loader = new DataLoader((grants) => this.read(grants), { cache: false });
  }

  current(grant: CredentialGrant): Promise<Viewer | undefined> {
    return this.loader.load(grant);
  }

  private async read(grants: readonly CredentialGrant[]): Promise<(Viewer | undefined)[]> {
    const passwords = grants.filter((g) => g.scheme === 'password');
    const oauth2 = grants.filter((g) => g.scheme === 'oauth2');
    const oauth1 = grants.filter((g) => g.scheme === 'oauth1');
    const [users, tokens2, tokens1] = await Promise.all([
      this.rows(
        `select ${VIEWER_COLUMNS}, u.password_hash, u.id::text as grant_key
           from users u where u.id = any(?::int[])`,
        passwords.map((g) => String(g.userId)),
      ),
      this.rows(
        `select ${VIEWER_COLUMNS}, t.access_token_hash as grant_key
           from oauth2_tokens t join users u on u.account_id = t.account_id and u.id = t.user_id
          where t.access_token_hash = any(?::text[]) and t.access_expires_at > now()
            and t.credentials_version = u.credentials_version`,
        oauth2.map((g) => g.tokenHash),
      ),
      this.rows(
        `select ${VIEWER_COLUMNS}, t.token_key as grant_key
           from oauth1_tokens t join users u on u.account_id = t.account_id and u.id = t.user_id
          where t.token_key = any(?::text[]) and t.kind = 'access'
            and t.credentials_version = u.credentials_version`,
        oauth1.map((g) => g.tokenKey),
      ),
    ]);
    return grants.map((grant) => {
      const row =
        grant.scheme === 'password'
          ? users.get(String(grant.userId))
          : grant.scheme === 'oauth2'
            ? tokens2.get(grant.tokenHash)
            : tokens1.get(grant.tokenKey);
      if (!row?.active) return undefined;
      if (
        grant.scheme === 'password' &&
        (row.login.toLowerCase() !== grant.login.toLowerCase() ||
          passwordHashDigest(row.password_hash!) !== grant.hashDigest)
      )
        return undefined;
      return viewerFromRow(row);
    });
  }

  /** The rows of `sql` by their grant_key; no query when there are no keys. */
  private async rows(sql: string, keys: string[]): Promise<Map<string, GrantRow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.orm.em.getConnection().execute<GrantRow[]>(sql, [textArray(keys)]);
    return new Map(rows.map((row) => [row.grant_key!, row]));
  }
}

/** A PostgreSQL array literal of text values, quoted. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
