/**
 * Webhooks end to end: a real HTTP receiver on a loopback port, webhooks registered through
 * GraphQL, changes made through the JSON facade and GraphQL, the outbox sender driven by hand.
 * Signatures are checked here with the algorithm docs/webhooks.md gives receivers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import request from 'supertest';
import { OutboxSender } from '../../src/modules/delivery/outbox-sender';
import { postWebhook, WebhookDeliveryError } from '../../src/modules/webhooks/webhook-delivery';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { WebhookReceiver as Receiver, type Received } from '../support/webhook-receiver';

/** What a receiver does (docs/webhooks.md): HMAC-SHA256 over `id.timestamp.body` with the secret's bytes. */
function verify(secret: string, received: Received): boolean {
  const id = String(received.headers['webhook-id']);
  const timestamp = String(received.headers['webhook-timestamp']);
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${received.body}`)
    .digest();
  return String(received.headers['webhook-signature'])
    .split(' ')
    .some((signature) => {
      const [version, value] = signature.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return (
        version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
      );
    });
}

let t: TestApp;
let sender: OutboxSender;
let receiver: Receiver;
let owner: Credentials & { ownerId: string; accountId: number };
let project: { id: string; legacyId: number };
let other: { id: string };

const CREATE =
  'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id url eventKinds active } } }';
const DELIVERIES =
  'query($id: ID!) { webhookDeliveries(webhookId: $id) { id eventId kind attempts lastStatus lastError deliveredAt nextAttemptAt } }';

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  // The receiver is on loopback, which the SSRF guard refuses by default (tested below).
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  sender = new OutboxSender(t.db.orm, t.config.outbox);
  owner = await t.newAccount();
  const company = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    owner,
    'mutation { createCompany(input: { name: "Hooks Ltd", visibility: PUBLIC }) { company { id } } }',
  );
  const make = async (name: string) =>
    (
      await t.gqlOk<{ createProject: { project: { id: string; legacyId: number } } }>(
        owner,
        'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id legacyId } } }',
        {
          c: company.createCompany.company.id,
          n: name,
        },
      )
    ).createProject.project;
  project = await make('Hooked');
  other = await make('Other');
});
afterAll(async () => {
  await sender?.stop();
  await t?.close();
  await receiver?.stop();
});
beforeEach(async () => {
  // Every test starts with no webhook and nothing pending.
  const { webhooks } = await t.gqlOk<{ webhooks: { id: string }[] }>(owner, '{ webhooks { id } }');
  for (const w of webhooks)
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { deleteWebhook(input: { webhookId: $id }) { webhook { id } } }',
      { id: w.id },
    );
  await sender.drainOnce();
  receiver.take();
  // Punched out of everything.
  for (const p of [project, other])
    await request(t.app.express)
      .post(`/api/1/projects/${p.id}/punch_out.json`)
      .auth(owner.login, owner.password);
});

async function register(eventKinds: string[]): Promise<{ id: string; secret: string }> {
  const { createWebhook } = await t.gqlOk<{
    createWebhook: { secret: string; webhook: { id: string } };
  }>(owner, CREATE, {
    input: { url: receiver.url, eventKinds, description: 'test receiver' },
  });
  return { id: createWebhook.webhook.id, secret: createWebhook.secret };
}

test('a punch through the JSON facade reaches the receiver, signed', async () => {
  const hook = await register(['PUNCHED_IN']);
  expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  const punched = await request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_in.json`)
    .auth(owner.login, owner.password);
  expect(punched.status).toBe(200);

  expect(await sender.drainOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
  const [got, ...more] = receiver.take();
  expect(more).toEqual([]);
  expect(got!.headers['content-type']).toBe('application/json');
  expect(verify(hook.secret, got!)).toBe(true);
  // A changed body, or another secret, fails the check.
  expect(
    verify(hook.secret, { ...got!, body: got!.body.replace('PUNCHED_IN', 'PUNCHED_OUT') }),
  ).toBe(false);
  expect(verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, got!)).toBe(false);
  const timestamp = Number(got!.headers['webhook-timestamp']);
  expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);

  const body = JSON.parse(got!.body);
  expect(body).toMatchObject({
    id: got!.headers['webhook-id'],
    type: 'PUNCHED_IN',
    data: { shift: { projectId: project.id, userId: owner.ownerId, stop: null } },
  });
  expect(Date.parse(body.timestamp)).not.toBeNaN();
});

test('a receiver that fails twice gets the event on the third try; the attempts are visible', async () => {
  const hook = await register(['PUNCHED_IN', 'PUNCHED_OUT']);
  receiver.statuses.push(500, 500);
  await t.gqlOk(
    owner,
    'mutation($id: Int!) { punchIn(input: { project: { legacyId: $id } }) { project { running } } }',
    {
      id: project.legacyId,
    },
  );

  // Every drain is given its instant, so the backoff is measured from it and not from a clock
  // that a busy machine moves on between two lines.
  const failedAt = new Date();
  expect(await sender.drainOnce(failedAt)).toEqual({ claimed: 1, sent: 0, failed: 1 });
  let [delivery] = (await t.gqlOk<{ webhookDeliveries: any[] }>(owner, DELIVERIES, { id: hook.id }))
    .webhookDeliveries;
  expect(delivery).toMatchObject({
    kind: 'PUNCHED_IN',
    attempts: 1,
    lastStatus: 500,
    lastError: 'the receiver answered 500',
    deliveredAt: null,
  });
  // The backoff holds it back: a drain now finds nothing due; one after the backoff retries it.
  expect(await sender.drainOnce(failedAt)).toMatchObject({ claimed: 0 });
  expect(Date.parse(delivery.nextAttemptAt)).toBeGreaterThan(failedAt.getTime());
  expect(await sender.drainOnce(new Date(failedAt.getTime() + 60_000))).toEqual({
    claimed: 1,
    sent: 0,
    failed: 1,
  });
  expect(await sender.drainOnce(new Date(failedAt.getTime() + 10 * 60_000))).toEqual({
    claimed: 1,
    sent: 1,
    failed: 0,
  });

  const attempts = receiver.take();
  expect(attempts).toHaveLength(3);
  // One event: the same id and body every time, each attempt signed with its own timestamp.
  expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
  expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
  expect(attempts.every((a) => verify(hook.secret, a))).toBe(true);
  [delivery] = (
    await t.gqlOk<{ webhookDeliveries: any[] }>(owner, DELIVERIES, { id: hook.id })
  ).webhookDeliveries;
  expect(delivery).toMatchObject({
    attempts: 2,
    lastStatus: 204,
    lastError: null,
    nextAttemptAt: null,
    eventId: attempts[0]!.headers['webhook-id'],
  });
  expect(delivery.deliveredAt).not.toBeNull();
});

test('replay sends a delivered event again, with a new signature over the same body', async () => {
  const hook = await register(['SHIFT_CREATED']);
  await t.gqlOk(
    owner,
    'mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-01-05T09:00:00Z", stop: "2026-01-05T10:00:00Z" }) { shift { id } } }',
    { p: project.id },
  );
  await sender.drainOnce();
  const [first] = receiver.take();
  const [delivery] = (
    await t.gqlOk<{ webhookDeliveries: { id: string }[] }>(owner, DELIVERIES, { id: hook.id })
  ).webhookDeliveries;
  const replayed = await t.gqlOk<{
    replayWebhookDelivery: { delivery: { attempts: number; deliveredAt: string | null } };
  }>(
    owner,
    'mutation($id: ID!) { replayWebhookDelivery(input: { deliveryId: $id }) { delivery { attempts deliveredAt } } }',
    {
      id: delivery!.id,
    },
  );
  expect(replayed.replayWebhookDelivery.delivery).toEqual({ attempts: 0, deliveredAt: null });
  expect(await sender.drainOnce(new Date(Date.now() + 1000))).toMatchObject({ sent: 1 });
  const [again] = receiver.take();
  expect(again!.body).toBe(first!.body);
  expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
  expect(verify(hook.secret, again!)).toBe(true);
});

test('only the kinds asked for, only committed changes, only the own account', async () => {
  await register(['SHIFT_DELETED']);
  const stranger = await t.newAccount();
  const strangers = await t.gqlOk<{ createWebhook: { webhook: { id: string } } }>(
    stranger,
    CREATE,
    { input: { url: receiver.url, eventKinds: ['PUNCHED_IN', 'SHIFT_DELETED'] } },
  );
  expect(strangers.createWebhook.webhook.id).toBeDefined();

  // A punch-in (not asked for), and a refused punch-in (already punched in): nothing.
  await request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_in.json`)
    .auth(owner.login, owner.password);
  const refused = await request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_in.json`)
    .auth(owner.login, owner.password);
  expect(refused.status).toBe(422);
  const shift = await t.gqlOk<{ createShift: { shift: { id: string } } }>(
    owner,
    'mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-02-05T09:00:00Z", stop: "2026-02-05T10:00:00Z" }) { shift { id } } }',
    { p: other.id },
  );
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { shift { id } } }',
    {
      id: shift.createShift.shift.id,
    },
  );

  expect(await sender.drainOnce()).toMatchObject({ claimed: 1, sent: 1 });
  const got = receiver.take();
  expect(got.map((g) => JSON.parse(g.body).type)).toEqual(['SHIFT_DELETED']);
  expect(JSON.parse(got[0]!.body).data.shift.id).toBe(shift.createShift.shift.id);
});

test('only the owner manages webhooks, and bad values are validation errors', async () => {
  const staff = await t.newStaff(owner, { type: 'MANAGER' });
  const denied = await t.gql(staff, CREATE, {
    input: { url: receiver.url, eventKinds: ['PUNCHED_IN'] },
  });
  expect(codes(denied)).toEqual(['CREATE_DENIED']);
  expect(codes(await t.gql(staff, '{ webhooks { id } }'))).toEqual(['READ_DENIED']);

  const badUrl = await t.gql(owner, CREATE, {
    input: { url: 'ftp://example.com/x', eventKinds: ['PUNCHED_IN'] },
  });
  expect(codes(badUrl)).toEqual(['VALIDATION_FAILED']);
  expect(badUrl.errors![0]!.extensions?.fieldErrors).toEqual([
    { field: 'url', message: 'must be an absolute http or https URL' },
  ]);
  expect(
    codes(await t.gql(owner, CREATE, { input: { url: receiver.url, eventKinds: [] } })),
  ).toEqual(['VALIDATION_FAILED']);
  const unknownKind = await t.gql(owner, CREATE, {
    input: { url: receiver.url, eventKinds: ['PUNCHED_SIDEWAYS'] },
  });
  expect(unknownKind.status).toBe(400);
  expect(codes(unknownKind)).toEqual(['BAD_USER_INPUT']);
  expect(
    codes(await t.gql(owner, DELIVERIES, { id: '00000000-0000-4000-8000-000000000000' })),
  ).toEqual(['NOT_FOUND']);
});

test('an inactive webhook gets nothing new; a deleted one takes its pending deliveries with it', async () => {
  const hook = await register(['PUNCHED_IN', 'PUNCHED_OUT']);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateWebhook(input: { webhookId: $id, patch: { active: false } }) { webhook { active } } }',
    { id: hook.id },
  );
  await request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_in.json`)
    .auth(owner.login, owner.password);
  expect(await sender.drainOnce()).toMatchObject({ claimed: 0 });

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateWebhook(input: { webhookId: $id, patch: { active: true } }) { webhook { active } } }',
    { id: hook.id },
  );
  await request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_out.json`)
    .auth(owner.login, owner.password);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteWebhook(input: { webhookId: $id }) { webhook { id } } }',
    { id: hook.id },
  );
  expect(await sender.drainOnce()).toMatchObject({ claimed: 0 });
  expect(receiver.take()).toEqual([]);
});

describe('the SSRF guard (the default: WEBHOOK_ALLOW_PRIVATE_ADDRESSES=false)', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp();
  });
  afterAll(() => guarded?.close());

  test.each([
    'http://127.0.0.1:5432/',
    'http://localhost/hooks',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0/',
    // IPv4-compatible IPv6 (::/96), which ipaddr.js calls unicast: loopback, the metadata service.
    'http://[::7f00:1]/',
    'http://[::a9fe:a9fe]/',
  ])('registering %s is refused with a message', async (url) => {
    const boss = await guarded.newAccount();
    const res = await guarded.gql(boss, CREATE, { input: { url, eventKinds: ['PUNCHED_IN'] } });
    expect(codes(res)).toEqual(['VALIDATION_FAILED']);
    expect(res.errors![0]!.extensions?.fieldErrors).toEqual([
      {
        field: 'url',
        message: 'must reach a public address (not loopback, private or link-local)',
      },
    ]);
  });

  test('a name that resolves to a private address is refused at delivery, after the lookup: nothing is sent', async () => {
    const name = receiver.url.replace('127.0.0.1', 'localhost'); // a name resolving to loopback, as a rebinding name would
    const payload = { eventId: 'evt_ssrf', body: '{"kind":"PUNCHED_IN"}' } as Parameters<
      typeof postWebhook
    >[1];
    const refused = postWebhook({ url: name, secret: 'whsec_c2VjcmV0' }, payload, {
      timeoutMs: 2000,
      allowPrivateAddresses: false,
    });
    await expect(refused).rejects.toThrow(WebhookDeliveryError);
    await expect(refused).rejects.toThrow(
      'no answer from the receiver: the host has no public address',
    );
    expect(receiver.take()).toEqual([]);
    // The same request with the guard off reaches it: the refusal above was the guard's.
    await expect(
      postWebhook({ url: receiver.url, secret: 'whsec_c2VjcmV0' }, payload, {
        timeoutMs: 2000,
        allowPrivateAddresses: true,
      }),
    ).resolves.toBe(204);
    expect(receiver.take()).toHaveLength(1);
  });

  test.each([
    ['http://[::7f00:1]/hooks', 'an IPv4-compatible IPv6 address written out'],
    ['http://no-such-host.invalid/hooks', 'a name that does not resolve'],
  ])(
    'a delivery to %s (%s) answers as a name resolving to a private address does (issue 33)',
    async (url) => {
      const payload = { eventId: 'evt_ssrf', body: '{}' } as Parameters<typeof postWebhook>[1];
      await expect(
        postWebhook({ url, secret: 'whsec_c2VjcmV0' }, payload, {
          timeoutMs: 2000,
          allowPrivateAddresses: false,
        }),
      ).rejects.toThrow('no answer from the receiver: the host has no public address');
    },
  );

  test.each([
    ['a name that now resolves to loopback', (port: string) => `http://localhost:${port}/hooks`],
    ['a loopback address written out', (port: string) => `http://127.0.0.1:${port}/hooks`],
  ])(
    'a refused delivery (%s) tells the owner only that the host has no public address, never what the name resolved to',
    async (_case, aimedAt) => {
      // Registered while its name resolved to a public address; the record changed since (DNS
      // rebinding), which the test stands in for by rewriting the stored URL.
      const boss = await guarded.newAccount();
      const company = await guarded.create(boss, 'createCompany', { name: 'Rebinding Ltd' });
      const target = await guarded.create(boss, 'createProject', {
        name: 'Rebound',
        companyId: company.id,
      });
      const { createWebhook } = await guarded.gqlOk(boss, CREATE, {
        input: { url: 'https://hooks.example.com/in', eventKinds: ['PUNCHED_IN'] },
      });
      const port = new URL(receiver.url).port;
      await guarded.db.orm.em
        .getConnection()
        .execute('update webhooks set url = ? where uuid = ?', [
          aimedAt(port),
          createWebhook.webhook.id,
        ]);
      await guarded.gqlOk(
        boss,
        'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { running } } }',
        {
          id: target.id,
        },
      );

      const guardedSender = new OutboxSender(guarded.db.orm, guarded.config.outbox);
      try {
        expect(await guardedSender.drainOnce()).toMatchObject({ sent: 0, failed: 1 });
      } finally {
        await guardedSender.stop();
      }
      expect(receiver.take()).toEqual([]);
      const [delivery] = (
        await guarded.gqlOk<{ webhookDeliveries: any[] }>(boss, DELIVERIES, {
          id: createWebhook.webhook.id,
        })
      ).webhookDeliveries;
      expect(delivery).toMatchObject({
        attempts: 1,
        lastStatus: null,
        lastError: 'no answer from the receiver: the host has no public address',
      });
    },
  );
});
