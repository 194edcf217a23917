import fs from 'node:fs';
import path from 'node:path';
import type { DatasetManifest, DatasetSize } from './dataset';
import type { LoadResult } from './load';

export interface Measurement extends LoadResult {
  readonly scenario: string;
  readonly target: string;
  readonly kind: string;
  readonly connections: number;
  readonly rssMb: number;
  readonly statements: number | undefined;
}

export interface RunInfo {
  readonly started: Date;
  readonly finished: Date;
  readonly machine: string;
  readonly size: DatasetSize;
  readonly manifest: DatasetManifest;
  readonly embeddedLoadSeconds: number | undefined;
  readonly durationSeconds: number;
  readonly scenarios: { id: string; title: string }[];
  readonly checks: string[];
  readonly statements: Record<string, number>;
  /** Microseconds of one cached Basic authentication. */
  readonly authShare: number;
}

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** Writes `bench/results/<date>.md` (and the raw numbers as .json); returns the Markdown file. */
export function writeReport(dir: string, info: RunInfo, rows: Measurement[]): string {
  fs.mkdirSync(dir, { recursive: true });
  const day = info.started.toISOString().slice(0, 10);
  const find = (scenario: string, kind: string, c: number) =>
    rows.find((r) => r.scenario === scenario && r.kind === kind && r.connections === c);
  const connections = [...new Set(rows.map((r) => r.connections))];
  const ratio = (top: Measurement | undefined, bottom: Measurement | undefined) =>
    top && bottom ? top.requestsPerSecond / bottom.requestsPerSecond : NaN;

  const lines: string[] = [
    `# Benchmark ${day}`,
    '',
    `Machine: ${info.machine}. Run ${info.started.toISOString()} – ${info.finished.toISOString()}, ${info.durationSeconds} s per measurement, autocannon in its own process over loopback.`,
    '',
    `Dataset: ${info.size.staff} staff, ${info.size.companies} companies, ${info.size.projects} projects, ${info.size.projects * info.size.activitiesPerProject} activities, ${info.size.shifts.toLocaleString('en')} shifts over ${info.size.years} years; loaded into PostgreSQL in ${fixed(info.manifest.loadSeconds)} s${info.embeddedLoadSeconds !== undefined ? `, into the embedded database in ${fixed(info.embeddedLoadSeconds)} s` : ''}.`,
    '',
    '## Scenarios',
    '',
    ...info.scenarios.map((s) => `- **${s.id}**: ${s.title}`),
    '',
    '## Results',
    '',
    '| scenario | target | c | req/s | p50 ms | p99 ms | RSS MB | SQL/request | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.target} | ${r.connections} | ${fixed(r.requestsPerSecond)} | ${r.latencyP50} | ${r.latencyP99} | ${fixed(r.rssMb, 0)} | ${r.statements ?? '–'} | ${r.non2xx + r.errors + r.timeouts} |`,
    ),
    '',
    '## Ratios (throughput)',
    '',
    '| ratio | ' + connections.map((c) => `c=${c}`).join(' | ') + ' | goal |',
    '|---|' + connections.map(() => '---:|').join('') + '---|',
    `| facade overhead (a): GraphQL ÷ JSON | ${connections.map((c) => fixed(ratio(find('da', 'service', c), find('a', 'service', c)), 2)).join(' | ')} | ≤ 1.15 |`,
    `| facade overhead (b): GraphQL ÷ JSON | ${connections.map((c) => fixed(ratio(find('db', 'service', c), find('b', 'service', c)), 2)).join(' | ')} | ≤ 1.15 |`,
    `| (a) floor ÷ service | ${connections.map((c) => fixed(ratio(find('a', 'floor', c), find('a', 'service', c)), 2)).join(' | ')} | ≤ 2 |`,
    `| (b) floor ÷ service | ${connections.map((c) => fixed(ratio(find('b', 'floor', c), find('b', 'service', c)), 2)).join(' | ')} | ≤ 2 |`,
    `| (c) service ÷ PostGraphile | ${connections.map((c) => fixed(ratio(find('c', 'service', c), find('c', 'postgraphile', c)), 2)).join(' | ')} | ≥ 1 |`,
    `| (a) service: PostgreSQL ÷ embedded | ${connections.map((c) => fixed(ratio(find('a', 'service', c), find('a', 'embedded', c)), 2)).join(' | ')} | (information) |`,
    '',
    `Cached Basic authentication costs ${fixed(info.authShare, 0)} µs per request (context creation, measured in-process); (a) at c=1 takes ${find('a', 'service', 1)?.latencyP50 ?? '–'} ms at the median, so authentication is ${fixed((info.authShare / 1000 / (find('a', 'service', 1)?.latencyP50 ?? NaN)) * 100, 1)} % of it (goal < 5 %).`,
    '',
    '## Checks',
    '',
    ...info.checks.map((c) => `- ${c}`),
    `- SQL statements per request of the service (one request after a warm-up, counted in-process): ${Object.entries(
      info.statements,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
  ];
  const file = path.join(dir, `${day}.md`);
  fs.writeFileSync(file, lines.join('\n'));
  fs.writeFileSync(path.join(dir, `${day}.json`), `${JSON.stringify({ info, rows }, null, 2)}\n`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  return file;
}
