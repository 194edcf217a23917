import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { ConfigError, loadConfig } from '../../src/core/config';
import { createAccount } from '../../src/modules/staff/account-opening';
import { OAuthClientService } from '../../src/modules/oauth';
import { OutboxSender } from '../../src/modules/delivery/outbox-sender';
import { startServer } from '../../src/server';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

/** One message as the SMTP server received it. */
interface Received {
  user: string | undefined;
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port; it can be told to refuse the next recipients. */
class TestSmtpServer {
  readonly received: Received[] = [];
  rejectNext = 0;
  /** Woken on each message received. */
  private readonly arrivals: (() => void)[] = [];
  readonly server = new SMTPServer({
    // No TLS on loopback: nodemailer would otherwise upgrade and refuse the self-signed certificate.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => {
      if (auth.username === 'timetrack' && auth.password === 's3cret')
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo: (_address, _session, callback) => {
      if (this.rejectNext > 0) {
        this.rejectNext -= 1;
        return callback(
          Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 450 }),
        );
      }
      return callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push({
          user: session.user as string | undefined,
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((a) => a.address),
          // Undo quoted-printable soft line breaks, so a long line can be searched whole.
          raw: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, ''),
        });
        for (const wake of this.arrivals.splice(0)) wake();
        callback();
      });
    },
  });

  /** Resolves once a message that `matches` has been received (at once if one has). */
  async arrived(matches: (message: Received) => boolean): Promise<void> {
    while (!this.received.some(matches))
      await new Promise<void>((resolve) => this.arrivals.push(resolve));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const CREATE =
  'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id legacyId active } } }';
const ENABLE =
  'mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { id active } } }';
const DISABLE =
  'mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id active } } }';
const UPDATE =
  'mutation($id: ID!, $input: StaffInput!) { updateStaff(input: { staff: { id: $id }, patch: $input }) { staff { id active } } }';

interface OutboxRow {
  kind: string;
  payload: { to: string; subject: string; text: string };
  attempts: number;
  last_error: string | null;
  sent: boolean;
  /** available_at in epoch milliseconds (the driver hands timestamps back as text). */
  available_ms: number;
}

let smtp: TestSmtpServer;
let smtpUrl: string;
let t: TestApp;
let sender: OutboxSender;
const tempDirs: string[] = [];

beforeAll(async () => {
  smtp = new TestSmtpServer();
  smtpUrl = `smtp://timetrack:s3cret@127.0.0.1:${await smtp.listen()}`;
  t = await startTestApp({ SMTP_URL: smtpUrl });
  // No background timer in tests: each test drains when it wants to look.
  sender = new OutboxSender(t.db.orm, t.config.outbox);
});
afterAll(async () => {
  await sender?.stop();
  await t?.close();
  await smtp?.close();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  smtp.received.length = 0;
  smtp.rejectNext = 0;
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-outbox-'));
  tempDirs.push(dir);
  return dir;
}

async function outbox(accountId: number): Promise<OutboxRow[]> {
  return t.db.orm.em.getConnection().execute<OutboxRow[]>(
    `select kind, payload, attempts, last_error, sent_at is not null as sent,
              (extract(epoch from available_at) * 1000)::float8 as available_ms
         from outbox where account_id = ? order by id`,
    [accountId],
  );
}

async function createStaff(owner: Credentials, input: Record<string, unknown>) {
  const data = await t.gqlOk(owner, CREATE, { input: { password: 'staff-password', ...input } });
  return data.createStaff.staff as { id: string; legacyId: number; active: boolean };
}

function unique(prefix: string): string {
  return `${prefix}_${Math.random().toString(36).slice(2, 8)}`;
}

describe('on a paid plan (staffMax > 0)', () => {
  test('creating a user e-mails the owner over SMTP, naming the user and the account', async () => {
    const owner = await t.newAccount({ staffMax: 5, name: 'Acme Widgets' });
    await createStaff(owner, { login: unique('ann'), firstName: 'Ann', lastName: 'Archer' });

    const [queued] = await outbox(owner.accountId);
    expect(queued).toMatchObject({ kind: 'email', attempts: 0, sent: false });
    expect(queued!.payload.to).toBe(`${owner.login}@example.com`);

    expect(await sender.drainOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.rcptTo).toEqual([`${owner.login}@example.com`]);
    expect(mail.user).toBe('timetrack'); // the credentials of SMTP_URL were used
    expect(mail.mailFrom).toBe('no-reply@localhost');
    expect(mail.raw).toMatch(
      /^Subject: Please confirm the new user Ann Archer on Acme Widgets\r?$/m,
    );
    expect(mail.raw).toContain('Ann Archer (login "ann_');
    expect(mail.raw).toContain('was added to your account "Acme Widgets"');
    expect(mail.raw).toContain('Please confirm the creation of this new user');
    // The row's uuid: every copy of an at-least-once delivery carries the same Message-ID.
    expect(mail.raw).toMatch(/^Message-ID: <[0-9a-f-]{36}@timetrack\.outbox>\r?$/m);

    expect((await outbox(owner.accountId))[0]!.sent).toBe(true);
    expect(await sender.drainOnce()).toEqual({ claimed: 0, sent: 0, failed: 0 });
  });

  test('enabling a disabled user sends another e-mail; disabling and re-enabling an active one send none', async () => {
    const owner = await t.newAccount({ staffMax: 5 });
    const member = await createStaff(owner, {
      login: unique('bo'),
      firstName: 'Bo',
      lastName: 'Baker',
    });
    await t.gqlOk(owner, ENABLE, { id: member.id }); // already active: no change, no e-mail
    await t.gqlOk(owner, DISABLE, { id: member.id });
    expect(await outbox(owner.accountId)).toHaveLength(1);

    await t.gqlOk(owner, ENABLE, { id: member.id });
    expect(await outbox(owner.accountId)).toHaveLength(2);
    expect(await sender.drainOnce()).toMatchObject({ sent: 2 });
    expect(smtp.received.map((m) => m.rcptTo)).toEqual([
      [`${owner.login}@example.com`],
      [`${owner.login}@example.com`],
    ]);
    expect(smtp.received[1]!.raw).toContain('Bo Baker (login "bo_');
    expect(smtp.received[1]!.raw).toContain('was enabled on your account');
  });

  test('an update that activates a user sends the e-mail with the name the update gave', async () => {
    const owner = await t.newAccount({ staffMax: 5 });
    const member = await createStaff(owner, { login: unique('cy'), active: false });
    expect(await outbox(owner.accountId)).toEqual([]); // inactive: nothing to pay for yet

    await t.gqlOk(owner, UPDATE, { id: member.id, input: { firstName: 'Cy' } }); // stays inactive
    await t.gqlOk(owner, UPDATE, {
      id: member.id,
      input: { active: true, firstName: 'Cyd', lastName: 'Cole' },
    });
    const rows = await outbox(owner.accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload.text).toContain('Cyd Cole (login "cy_');
    await t.gqlOk(owner, UPDATE, { id: member.id, input: { active: true } }); // already active
    expect(await outbox(owner.accountId)).toHaveLength(1);
    await sender.drainOnce();
  });

  test('a refused create or enable (PAYMENT_REQUIRED) leaves no outbox row', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    await createStaff(owner, { login: unique('first') });
    const idle = await createStaff(owner, { login: unique('idle'), active: false });
    expect(await outbox(owner.accountId)).toHaveLength(1);

    const create = await t.gql(owner, CREATE, {
      input: { login: unique('second'), password: 'staff-password' },
    });
    expect(codes(create)).toEqual(['PAYMENT_REQUIRED']);
    const enable = await t.gql(owner, ENABLE, { id: idle.id });
    expect(codes(enable)).toEqual(['PAYMENT_REQUIRED']);
    expect(await outbox(owner.accountId)).toHaveLength(1);
    await sender.drainOnce();
  });
});

test('on a free plan (no staffMax) nothing is queued', async () => {
  const owner = await t.newAccount();
  const member = await createStaff(owner, { login: unique('free') });
  await t.gqlOk(owner, DISABLE, { id: member.id });
  await t.gqlOk(owner, ENABLE, { id: member.id });
  expect(await outbox(owner.accountId)).toEqual([]);
  expect(await sender.drainOnce()).toEqual({ claimed: 0, sent: 0, failed: 0 });
  expect(smtp.received).toEqual([]);
});

test('a delivery the SMTP server refuses is retried after a backoff, then marked sent', async () => {
  const owner = await t.newAccount({ staffMax: 5 });
  await createStaff(owner, { login: unique('retry'), firstName: 'Rae' });
  smtp.rejectNext = 1;

  const firstTry = new Date();
  expect(await sender.drainOnce(firstTry)).toEqual({ claimed: 1, sent: 0, failed: 1 });
  const [failed] = await outbox(owner.accountId);
  expect(failed).toMatchObject({ attempts: 1, sent: false });
  expect(failed!.last_error).toMatch(/450.*Mailbox busy/);
  expect(failed!.available_ms).toBe(firstTry.getTime() + 5_000);
  expect(smtp.received).toEqual([]);

  // Not due again before the backoff has passed.
  expect(await sender.drainOnce(new Date(firstTry.getTime() + 4_000))).toEqual({
    claimed: 0,
    sent: 0,
    failed: 0,
  });
  expect(await sender.drainOnce(new Date(firstTry.getTime() + 5_000))).toEqual({
    claimed: 1,
    sent: 1,
    failed: 0,
  });
  expect((await outbox(owner.accountId))[0]).toMatchObject({ attempts: 1, sent: true });
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.rcptTo).toEqual([`${owner.login}@example.com`]);
});

test('without SMTP_URL the e-mail is written as an .eml file under DATA_DIR/outbox', async () => {
  const dataDir = tempDir();
  // The same database, drained by a sender configured without SMTP_URL.
  const fileSender = new OutboxSender(t.db.orm, loadConfig({ DATA_DIR: dataDir }).outbox);
  try {
    const owner = await t.newAccount({ staffMax: 5, name: 'File Co' });
    await createStaff(owner, { login: unique('dee'), firstName: 'Dee', lastName: 'Dunn' });
    expect(await fileSender.drainOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });

    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toEqual([expect.stringMatching(/^\d{8}T\d{6}Z-[0-9a-f-]{36}\.eml$/)]);
    const eml = fs
      .readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8')
      .replace(/=\r?\n/g, '');
    expect(eml).toContain(`To: ${owner.login}@example.com`);
    expect(eml).toContain('Dee Dunn (login "dee_');
    expect(eml).toContain('File Co');
    expect((await outbox(owner.accountId))[0]!.sent).toBe(true);
    expect(smtp.received).toEqual([]);
  } finally {
    await fileSender.stop();
  }
});

test('startServer runs the sender in the background and stops it with the server', async () => {
  // Its own database: a file-backed embedded one in a temp dir, or the test server's database.
  const server = await startServer(
    loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      PASSWORD_HASH_MEMORY_KIB: '1024',
      DATA_DIR: tempDir(),
      SMTP_URL: smtpUrl,
      OUTBOX_POLL_MS: '100',
      ...(t.config.database.kind === 'server' ? { DATABASE_URL: t.config.database.url } : {}),
    }),
  );
  try {
    const login = unique('bg_owner');
    await createAccount(server.db.orm, server.app.hasher, new OAuthClientService(), {
      login,
      password: 'owner-password',
      email: `${login}@example.com`,
      staffMax: 3,
    });
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${login}:owner-password`).toString('base64')}`,
      },
      body: JSON.stringify({
        query: CREATE,
        variables: { input: { login: unique('bg'), password: 'staff-password' } },
      }),
    });
    expect(res.status).toBe(200);
    // The background sender polls the outbox; the message's arrival is awaited, not a pause.
    await smtp.arrived((m) => m.rcptTo.includes(`${login}@example.com`));
    expect(smtp.received.filter((m) => m.rcptTo.includes(`${login}@example.com`))).toHaveLength(1);
  } finally {
    await server.stop();
  }
});

describe('configuration', () => {
  test('defaults: file delivery under DATA_DIR/outbox, polling every 2 s, webhooks given 10 s and public addresses only', () => {
    const config = loadConfig({ DATA_DIR: '/srv/tt', DATABASE_URL: 'postgres://u@h/db' });
    expect(config.outbox).toEqual({
      smtpUrl: undefined,
      from: 'timetrack <no-reply@localhost>',
      pollMs: 2000,
      webhookTimeoutMs: 10_000,
      webhookAllowPrivateAddresses: false,
      fileDir: path.resolve('/srv/tt/outbox'),
    });
  });

  test.each([
    ['SMTP_URL', 'http://mail.example.com'],
    ['SMTP_URL', 'not a url'],
    ['SMTP_FROM', 'nobody'],
    ['SMTP_FROM', 'Evil <a@b>\r\nBcc: x@y'],
    ['WEBHOOK_TIMEOUT_MS', '0'],
    ['OUTBOX_POLL_MS', '0'],
    ['OUTBOX_POLL_MS', 'soon'],
  ])('an invalid %s=%j is refused with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
