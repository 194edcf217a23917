import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { withClient } from '../../bench/postgres-clients';
import { testCitusWorkers } from '../support/test-database';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * A busy account moved to the other worker of a Citus cluster while people punch in and out of
 * its projects and read its reports through the service (issue 38): every answer is a success or
 * a 503 to retry, a keyed punch retried after a 503 happens once, and afterwards the shifts, the
 * totals the writes keep and the report agree. Runs in the suite's pass on a Citus coordinator
 * (TEST_DATABASE_URL, `.ci/run`); skipped on every other database.
 */
const describeOnCitus = testCitusWorkers().length > 0 ? describe : describe.skip;

const PUNCH_IN = 'mutation($p: ID!) { punchIn(input: { project: { id: $p } }) { project { id } } }';
const PUNCH_OUT =
  'mutation($p: ID!) { punchOut(input: { project: { id: $p } }) { project { id } } }';
const REPORT = `query($input: ReportInput!) { report(input: $input) { totals { seconds } } }`;
// A year either side of the test's start: every punch of the test, whenever it runs.
const YEAR = 366 * 86_400_000;
const EVER = {
  from: new Date(Date.now() - YEAR).toISOString(),
  to: new Date(Date.now() + YEAR).toISOString(),
  groupBy: [],
};
const TOTALS = 'query($p: ID!) { project(id: $p) { grandTotal } }';

/** What one request answered: its HTTP status and its GraphQL errors' codes and messages. */
interface Answer {
  readonly status: number;
  readonly codes: readonly (string | undefined)[];
  readonly messages: readonly string[];
}

describeOnCitus(
  'an account moved to the other worker while the service writes and reads it',
  () => {
    let t: TestApp;
    let url: string;
    const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
      withClient(url, async (client) => (await client.query(text, params)).rows as T[]);

    beforeAll(async () => {
      t = await startTestApp();
      url = (t.config.database as { url: string }).url;
    });
    afterAll(() => t?.close());

    test('every answer a success or a retryable 503; nothing lost or doubled; the totals agree', async () => {
      const owner = await t.newAccount();
      const people: Credentials[] = [owner, await t.newStaff(owner), await t.newStaff(owner)];
      const company = await t.create(owner, 'createCompany', { name: 'Moving' });
      const projects: string[] = [];
      for (const name of ['One', 'Two', 'Three'])
        projects.push(
          (
            await t.create(owner, 'createProject', {
              companyId: company.id,
              name,
              visibility: 'PUBLIC',
            })
          ).id,
        );

      const answers: Answer[] = [];
      /** Posts an operation with an Idempotency-Key, again with the same key after each 503. */
      const keyed = async (who: Credentials, query: string, variables: object): Promise<void> => {
        const key = randomUUID();
        for (;;) {
          const res = await request(t.app.express)
            .post('/graphql')
            .set('Idempotency-Key', key)
            .auth(who.login, who.password)
            .send({ query, variables });
          answers.push(answerOf(res));
          if (res.status !== 503) return;
        }
      };
      const read = async (who: Credentials, query: string, variables: object): Promise<void> => {
        const res = await request(t.app.express)
          .post('/graphql')
          .auth(who.login, who.password)
          .send({ query, variables });
        answers.push(answerOf(res));
      };

      // Each person punches in and out of their own project and reads the account's report and the
      // project's total, round after round: the move starts after everyone's fifth round, and they
      // go on until it has ended, so they write before, during and after it.
      let moved = false;
      let ready = 0;
      const rounds = people.map(() => 0);
      let startMove!: () => void;
      const fiveRounds = new Promise<void>((resolve) => (startMove = resolve));
      const working = people.map(async (who, i) => {
        const project = projects[i]!;
        for (let round = 0; !moved || round < 15; round++) {
          await keyed(who, PUNCH_IN, { p: project });
          await read(who, REPORT, { input: EVER });
          await keyed(who, PUNCH_OUT, { p: project });
          await read(who, TOTALS, { p: project });
          rounds[i] = round + 1;
          if (round === 4 && ++ready === people.length) startMove();
        }
      });

      const [before] = await placementOf(sql, owner.accountId);
      const target = testCitusWorkers()
        .map((worker) => new URL(worker))
        .find((w) => `${w.hostname}:${w.port}` !== before!.node)!;
      const moving = fiveRounds
        .then(() =>
          sql(
            `select citus_move_shard_placement($1::bigint, $2::text, $3::int, $4::text, $5::int, shard_transfer_mode => 'force_logical')`,
            [before!.shard, ...hostAndPort(before!.node), target.hostname, Number(target.port)],
          ),
        )
        .finally(() => {
          moved = true;
        });
      await Promise.all([...working, moving]);

      expect(await placementOf(sql, owner.accountId)).toEqual([
        { node: `${target.hostname}:${target.port}`, shard: before!.shard },
      ]);
      // Successes, and 503s to retry; no other failure.
      const failures = answers.filter(
        (a) => a.status !== 503 && (a.status !== 200 || a.codes.length > 0),
      );
      expect(failures).toEqual([]);

      // One shift per round (a punch-in retried with its key wrote once), each stopped by its
      // punch-out; the totals the writes keep and the report count the same seconds.
      const [stored] = await sql<{ shifts: number; running: number; seconds: string }>(
        `select count(*)::int as shifts, count(*) filter (where stop is null)::int as running,
              coalesce(sum(extract(epoch from stop - start)), 0)::text as seconds
         from shifts where account_id = $1`,
        [owner.accountId],
      );
      expect(stored).toMatchObject({ shifts: rounds.reduce((a, b) => a + b), running: 0 });
      const [kept] = await sql<{ seconds: string }>(
        `select coalesce(sum(stopped_seconds), 0)::text as seconds from project_user_totals where account_id = $1`,
        [owner.accountId],
      );
      expect(Number(kept!.seconds)).toBeCloseTo(Number(stored!.seconds), 3);
      const report = await t.gqlOk<{ report: { totals: { seconds: number } } }>(owner, REPORT, {
        input: EVER,
      });
      expect(report.report.totals.seconds).toBe(Math.round(Number(stored!.seconds)));
    }, 600_000);
  },
);

function answerOf(res: request.Response): Answer {
  const errors = (res.body as { errors?: { message: string; extensions?: { code?: string } }[] })
    .errors;
  return {
    status: res.status,
    codes: (errors ?? []).map((e) => e.extensions?.code),
    messages: (errors ?? []).map((e) => e.message),
  };
}

/** The worker (`host:port`) and the shard that hold the account. */
function placementOf(
  sql: <T>(text: string, params?: unknown[]) => Promise<T[]>,
  accountId: number,
): Promise<{ node: string; shard: string }[]> {
  return sql(
    `select nodename || ':' || nodeport as node, shardid::text as shard from citus_shards
      where table_name = 'accounts'::regclass and shardid = get_shard_id_for_distribution_column('accounts', $1::int)`,
    [accountId],
  );
}

function hostAndPort(node: string): [string, number] {
  const [host, port] = node.split(':');
  return [host!, Number(port)];
}
