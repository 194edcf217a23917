import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { scaledSize, datasetDatabase } from './dataset';
import type { LoadResult, LoadSpec } from './load';
import { onDatabaseOf, replicasReplayed, serverCpuSeconds, withClient } from './postgres-clients';
import {
  datasetIds,
  ensureServerDataset,
  graphqlSpec,
  measure,
  REPORT_QUERY,
  REPORT_VARIABLES,
  serverVersion,
} from './run';
import { ROOT, SERVICE, startTarget, type Target } from './targets';

/**
 * `npm run bench:replicas` (issue 24): the report scenario (r: a year by project × month, 4,800
 * rows) and the punch mix (e) at the same time, once with the service on the primary alone and
 * once with DATABASE_REPLICA_URLS, so that the reports read the streaming replica while the
 * punches write the primary. Needs the replica of `.ci/replica-and-pooler` (port 5433), which
 * replicates the bench database like every other. Writes `bench/results/<date>-replicas.md` and
 * `.json`.
 */
const program = new Command('bench:replicas')
  .option('--scale <n>', 'dataset size (1 = 1,000,000 shifts)', '1')
  .option('--duration <s>', 'seconds both loads run together', '20')
  .option('--reports <n>', 'connections asking for the report', '8')
  .option('--punchers <n>', 'connections punching in and out', '8')
  .option(
    '--admin-url <url>',
    'a PostgreSQL server to hold the bench database',
    'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option('--replica-url <url>', 'its streaming replica', 'postgres://postgres@127.0.0.1:5433/')
  .option('--primary-data <dir>', "the primary's data directory", '/var/lib/postgresql/15/main')
  .option('--replica-data <dir>', "the replica's data directory", '/var/lib/postgresql/15/replica')
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

interface Phase {
  readonly setup: string;
  readonly report: LoadResult;
  readonly punches: LoadResult;
  /** Reports the replica answered during the phase (the service's db_replica_reads_total). */
  readonly replicaReads: number | null;
  /** CPU seconds the primary's and the replica's PostgreSQL processes used during the phase. */
  readonly cpuSeconds: { readonly primary: number | null; readonly replica: number | null };
}

/**
 * The punch mix starts each user punched out (it alternates in and out from there): the shifts a
 * phase left running are stopped, so that neither phase's punches are refused for the other's.
 */
function punchEveryoneOut(url: string): Promise<unknown> {
  return withClient(url, (client) =>
    client.query(
      `update shifts set stop = greatest(now(), start + interval '1 second') where stop is null`,
    ),
  );
}

async function replicaReads(target: Target): Promise<number | null> {
  const text = await (await fetch(`${target.url}/metrics`)).text();
  const found = /^db_replica_reads_total\{[^}]*\} (\d+)/m.exec(text);
  return found ? Number(found[1]) : null;
}

async function main(): Promise<void> {
  const options = program.parse().opts<{
    scale: string;
    duration: string;
    reports: string;
    punchers: string;
    adminUrl: string;
    replicaUrl: string;
    primaryData: string;
    replicaData: string;
    out: string;
  }>();
  const started = new Date();
  const server = await ensureServerDataset(
    options.adminUrl,
    datasetDatabase(options.scale),
    scaledSize(Number(options.scale)),
  );
  const replicaUrl = onDatabaseOf(options.replicaUrl, server.url);
  // A dataset loaded just now may take the replica minutes to replay.
  await replicasReplayed(server.url, [replicaUrl], 30 * 60_000);
  const { manifest } = server;
  const basic = (login: string) =>
    `Basic ${Buffer.from(`${login}:${manifest.password}`).toString('base64')}`;
  const ids = await datasetIds(server.url);
  const duration = Number(options.duration);
  const report = graphqlSpec('/graphql', REPORT_QUERY, REPORT_VARIABLES, {
    authorization: basic(manifest.ownerLogin),
  });
  const punches = manifest.staffLogins.map((login, i) => ({
    authorization: basic(login),
    projectUuid: ids.projectUuids[i % ids.projectUuids.length]!,
  }));

  const setups: [string, Record<string, string>][] = [
    ['the primary alone', { DATABASE_URL: server.url }],
    ['reports on the replica', { DATABASE_URL: server.url, DATABASE_REPLICA_URLS: replicaUrl }],
  ];
  const phases: Phase[] = [];
  const answers: string[] = [];
  for (const [setup, env] of setups) {
    await punchEveryoneOut(server.url);
    const target = await startTarget(`service (${setup})`, SERVICE, () => ['serve'], env);
    try {
      const answer = await fetch(`${target.url}${report.path}`, {
        method: 'POST',
        headers: report.headers,
        body: report.body,
      });
      answers.push(JSON.stringify(((await answer.json()) as { data: unknown }).data));
      const before = await replicaReads(target);
      const cpuBefore = [
        serverCpuSeconds(options.primaryData),
        serverCpuSeconds(options.replicaData),
      ];
      const [reportResult, punchResult] = await Promise.all([
        measure(target, {
          ...report,
          url: `${target.url}${report.path}`,
          connections: Number(options.reports),
          durationSeconds: duration,
        } satisfies LoadSpec),
        measure(target, {
          path: '/',
          url: target.url,
          punches,
          connections: Number(options.punchers),
          durationSeconds: duration,
        } as LoadSpec),
      ]);
      const after = await replicaReads(target);
      const cpuAfter = [
        serverCpuSeconds(options.primaryData),
        serverCpuSeconds(options.replicaData),
      ];
      const used = (i: number) =>
        cpuBefore[i] === null || cpuAfter[i] === null ? null : cpuAfter[i]! - cpuBefore[i]!;
      phases.push({
        setup,
        report: reportResult,
        punches: punchResult,
        replicaReads: before === null || after === null ? null : after - before,
        cpuSeconds: { primary: used(0), replica: used(1) },
      });
    } finally {
      await target.stop();
    }
  }
  const same = answers.every((answer) => answer === answers[0]);

  const date = started.toISOString().slice(0, 10);
  fs.mkdirSync(options.out, { recursive: true });
  const file = path.join(options.out, `${date}-replicas.md`);
  const row = (phase: Phase, load: 'report' | 'punches') => {
    const r = phase[load];
    return `| ${phase.setup} | ${load === 'report' ? `r (c=${options.reports})` : `e (c=${options.punchers})`} | ${r.requestsPerSecond.toFixed(1)} | ${r.latencyP50} | ${r.latencyP99} | ${r.non2xx + r.errors + r.timeouts} |`;
  };
  const lines = [
    `# Reports on a replica while punches write the primary (${date})`,
    '',
    `\`npm run bench:replicas -- --duration ${duration} --reports ${options.reports} --punchers ${options.punchers}\`, scale ${options.scale} (${manifest.size.shifts.toLocaleString('en')} shifts).`,
    `Both loads run together for ${duration} s against one \`timetrack serve\` process; first with the primary alone, then with \`DATABASE_REPLICA_URLS\` set.`,
    '',
    `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.versions.node}, ${await serverVersion(server.url)}.`,
    '- The primary, its replica (a second cluster on the same machine, `.ci/replica-and-pooler`), the service and the load generators share these cores.',
    `- The report's answer was ${same ? 'identical' : '**different**'} on both set-ups.`,
    '',
    '| set-up | load | req/s | p50 ms | p99 ms | failed |',
    '|---|---|---:|---:|---:|---:|',
    ...phases.flatMap((phase) => [row(phase, 'report'), row(phase, 'punches')]),
    '',
    "Where the database work ran (CPU seconds of each server's processes during the phase) and who answered the reports:",
    '',
    '| set-up | primary CPU s | replica CPU s | reports answered by the replica |',
    '|---|---:|---:|---:|',
    ...phases.map(
      (phase) =>
        `| ${phase.setup} | ${phase.cpuSeconds.primary?.toFixed(1) ?? 'n/a'} | ${phase.cpuSeconds.replica?.toFixed(1) ?? 'n/a'} | ${phase.replicaReads ?? 'none'} |`,
    ),
    '',
    'The replica count includes the reports still in flight when the load generator stopped counting.',
    '',
  ];
  fs.writeFileSync(file, lines.join('\n'));
  fs.writeFileSync(
    file.replace(/\.md$/, '.json'),
    JSON.stringify({ date, options, same, phases }, null, 2),
  );
  console.log(lines.join('\n'));
  console.log(`written: ${file}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
