import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { scaledSize, datasetDatabase } from './dataset';
import { ensureServerDataset, serverVersion } from './run';
import { quiesce, ROOT, SERVICE, startTarget, treeRssMb } from './targets';

/**
 * `npm run bench:export`: one full CSV export of every shift (GET /api/1/shifts.csv as the owner)
 * from `timetrack serve` on the PostgreSQL bench database, sampling the RSS of the service's
 * process tree meanwhile. The export streams page by page, so its peak should stay near the idle
 * RSS whatever the number of rows: run at two scales side by side (`--scales 0.1,1`), the peak
 * should hardly move with ten times the rows. Writes `bench/results/export-<date>.md` and `.json`.
 */
const program = new Command('bench:export')
  .option(
    '--scales <list>',
    'dataset sizes against the reference (1 = 1,000,000 shifts), one export each',
    '0.1,1',
  )
  .option('--order <text>', 'the order parameter of the export', 'start desc')
  .option(
    '--admin-url <url>',
    'a PostgreSQL server (the databases are created on it)',
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

const log = (line: string) => process.stdout.write(`${line}\n`);
const SAMPLE_MS = 200;

interface ExportResult {
  shifts: number;
  lines: number;
  megabytes: number;
  seconds: number;
  firstByteMs: number;
  rowsPerSecond: number;
  idleRssMb: number;
  peakRssMb: number;
}

async function main(): Promise<void> {
  const options = program
    .parse()
    .opts<{ scales: string; order: string; adminUrl: string; out: string }>();
  const results: ExportResult[] = [];
  let database = '';
  for (const scale of options.scales.split(',').map(Number)) {
    const { url, manifest } = await ensureServerDataset(
      options.adminUrl,
      datasetDatabase(scale),
      scaledSize(scale),
    );
    database = await serverVersion(url);
    results.push(
      await exportOnce(
        url,
        manifest.ownerLogin,
        manifest.password,
        manifest.size.shifts,
        options.order,
      ),
    );
  }
  write(options.out, {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
    database,
    order: options.order,
    results,
  });
}

/** One export from a fresh service, with the RSS of its process tree sampled meanwhile. */
async function exportOnce(
  url: string,
  login: string,
  password: string,
  shifts: number,
  order: string,
): Promise<ExportResult> {
  const target = await startTarget('service (PostgreSQL)', SERVICE, () => ['serve'], {
    DATABASE_URL: url,
  });
  try {
    await quiesce(target.pid);
    const idleRssMb = treeRssMb(target.pid);
    log(`export: ${shifts.toLocaleString('en')} shifts, idle RSS ${idleRssMb.toFixed(0)} MB`);
    let peakRssMb = idleRssMb;
    const sampler = setInterval(
      () => (peakRssMb = Math.max(peakRssMb, treeRssMb(target.pid))),
      SAMPLE_MS,
    );
    const started = performance.now();
    const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
    const res = await fetch(`${target.url}/api/1/shifts.csv?order=${encodeURIComponent(order)}`, {
      headers: { authorization },
    });
    if (res.status !== 200 || !res.body)
      throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    let firstByteMs = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    // Lines, not rows: a note may span lines; the header is one of them.
    const result = {
      shifts,
      lines,
      megabytes: bytes / 2 ** 20,
      seconds,
      firstByteMs,
      rowsPerSecond: (lines - 1) / seconds,
      idleRssMb,
      peakRssMb,
    };
    log(
      `export: ${lines.toLocaleString('en')} lines, ${result.megabytes.toFixed(0)} MB in ${seconds.toFixed(1)} s; RSS idle ${idleRssMb.toFixed(0)} MB, peak ${peakRssMb.toFixed(0)} MB`,
    );
    return result;
  } finally {
    await target.stop();
  }
}

function write(
  dir: string,
  report: {
    date: string;
    machine: string;
    database: string;
    order: string;
    results: ExportResult[];
  },
): void {
  fs.mkdirSync(dir, { recursive: true });
  const name = `export-${report.date.slice(0, 10)}`;
  fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const n = (value: number, digits = 0) =>
    value.toLocaleString('en', { maximumFractionDigits: digits });
  const markdown = [
    '# CSV export: time and peak memory',
    '',
    `${report.date} · ${report.machine} · ${report.database} · \`GET /api/1/shifts.csv?order=${report.order}\` as the owner (every shift), from a freshly started service`,
    '',
    '| shifts | lines | size | time | first byte | rows/s | RSS idle | RSS peak | growth |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (r) =>
        `| ${n(r.shifts)} | ${n(r.lines)} | ${n(r.megabytes)} MB | ${n(r.seconds, 1)} s | ${n(r.firstByteMs)} ms | ${n(r.rowsPerSecond)} | ${n(r.idleRssMb)} MB | ${n(r.peakRssMb)} MB | ${n(r.peakRssMb - r.idleRssMb)} MB |`,
    ),
    '',
    'RSS is the service process tree, sampled every 200 ms. The export runs one GraphQL operation per',
    'page of 250 rows with keyset paging, so memory holds a page at a time: the peak should barely',
    'move between the sizes, while the time grows with the rows.',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, `${name}.md`), markdown);
  log(`export: wrote ${path.join(dir, `${name}.md`)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
