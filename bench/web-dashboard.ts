import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Command } from 'commander';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { scaledSize, datasetDatabase } from './dataset';
import { ensureServerDataset } from './run';
import { ROOT, SERVICE, startTarget } from './targets';

/**
 * `npm run bench:web` (issue 37): the web app's dashboard drawn for a year of the benchmark account
 * (2025, by week: 400 projects, 50 people, about 333,000 shifts of the 1,000,000) in Debian's
 * Chromium, against `timetrack serve` on PostgreSQL. Each run is read from a Chromium trace: from
 * the navigation (cold: the page, its code, the chart chunk, the queries) or the click on Show
 * (warm: the queries again) to the app's `timetrack:dashboard-drawn` mark, set once every chart
 * and table holds its figures, with the main thread's busy time in between. Also the bundle's
 * sizes, gzipped: what the first page loads, and the dashboard's chunk. Writes
 * `bench/results/<date>-web-dashboard.md` and `.json`. The goal (drawn within 1 s) is measured
 * here, never asserted.
 */
const program = new Command('bench:web')
  .option('--scale <n>', 'dataset size (1 = 1,000,000 shifts)', '1')
  .option('--runs <n>', 'measured runs of each kind', '5')
  .option(
    '--admin-url <url>',
    'a PostgreSQL server to hold the bench database',
    'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

const VIEW = '#/dashboard?from=2025-01-01&to=2026-01-01&per=WEEK';
const DRAWN = 'timetrack:dashboard-drawn';
const GOAL_MS = 1000;

interface Run {
  readonly kind: 'cold' | 'warm';
  /** From the navigation or the click to the drawn mark. */
  readonly drawnMs: number;
  /** Main-thread tasks in that time, from the trace. */
  readonly mainThreadBusyMs: number;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  args?: { data?: { documentLoaderURL?: string; type?: string } };
}

async function main(): Promise<void> {
  const options = program.parse().opts<{
    scale: string;
    runs: string;
    adminUrl: string;
    out: string;
  }>();
  const scale = Number(options.scale);
  const runs = Number(options.runs);
  const { url, manifest } = await ensureServerDataset(
    options.adminUrl,
    datasetDatabase(scale),
    scaledSize(scale),
  );
  const service = await startTarget('service', SERVICE, () => ['serve'], {
    DATABASE_URL: url,
  });
  const browser = await launchChromium();
  const traceFile = path.join(os.tmpdir(), `web-dashboard-trace-${process.pid}.json`);
  const results: Run[] = [];
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await signIn(page, service.url, manifest.ownerLogin, manifest.password);
    // The session is in the tab's storage: a reload is a cold start of the app, signed in.
    await page.goto(`${service.url}/${VIEW}`);
    await drawn(page);
    for (let i = 0; i <= runs; i++) {
      const cold = await traced(page, traceFile, () => page.reload(), 'navigation');
      const warm = await traced(
        page,
        traceFile,
        () => page.getByRole('button', { name: 'Show' }).click(),
        'click',
      );
      // The first of each is a warm-up (the server's and the browser's caches).
      if (i > 0) results.push({ kind: 'cold', ...cold }, { kind: 'warm', ...warm });
    }
  } finally {
    await browser.close();
    await service.stop();
    fs.rmSync(traceFile, { force: true });
  }
  const bundle = bundleSizes();
  const report = writeReport(options.out, { scale, runs: results, bundle });
  console.log(`wrote ${path.relative(ROOT, report)}`);
}

async function signIn(page: Page, base: string, login: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The page's performance timeline (the bench compiles without the DOM's types). */
type WithTimeline = { performance: { getEntriesByName(name: string): unknown[] } };

function drawn(page: Page): Promise<unknown> {
  // A function, not a string: the app's Content-Security-Policy refuses eval.
  return page.waitForFunction(
    (mark) => (globalThis as unknown as WithTimeline).performance.getEntriesByName(mark).length > 0,
    DRAWN,
    { timeout: 120_000 },
  );
}

/**
 * One run under a Chromium trace: `act` (a navigation or a click), then the drawn mark. The times
 * are the trace's: from the navigation's start, or the click's input event, to the mark.
 */
async function traced(
  page: Page,
  file: string,
  act: () => Promise<unknown>,
  from: 'navigation' | 'click',
): Promise<Omit<Run, 'kind'>> {
  await page.evaluate('performance.clearMarks()');
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'blink.user_timing',
      'loading',
      'disabled-by-default-devtools.timeline',
    ],
  });
  await act();
  await drawn(page);
  await browser.stopTracing();
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] })
    .traceEvents;
  // The last start of its kind, and the first mark after it. A reload's trace holds two
  // navigationStart events, in either order: the one with the page's address is the reload's.
  const starts = events.filter((e) =>
    from === 'navigation'
      ? e.name === 'navigationStart' && Boolean(e.args?.data?.documentLoaderURL)
      : e.name === 'EventDispatch' && e.args?.data?.type === 'click',
  );
  const start = starts.at(-1);
  const mark = events
    .filter((e) => e.name === DRAWN && start && e.ts > start.ts)
    .sort((a, b) => a.ts - b.ts)[0];
  if (!mark || !start) throw new Error(`the trace holds no ${start ? DRAWN : from} event`);
  const rendererMain = mark.tid;
  const busy = events
    .filter(
      (e) => e.name === 'RunTask' && e.tid === rendererMain && e.ts >= start.ts && e.ts < mark.ts,
    )
    .reduce((sum, e) => sum + (e.dur ?? 0), 0);
  return { drawnMs: (mark.ts - start.ts) / 1000, mainThreadBusyMs: busy / 1000 };
}

/** The gzipped size of what the page loads first, and of each chunk loaded later. */
function bundleSizes(): { firstLoadKb: number; chunks: { file: string; gzipKb: number }[] } {
  const web = path.join(ROOT, 'dist', 'web');
  const page = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  const first = new Set([...page.matchAll(/src="\/app\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!));
  const chunks = fs
    .readdirSync(path.join(web, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({
      file,
      gzipKb: gzipSync(fs.readFileSync(path.join(web, 'assets', file)), { level: 9 }).length / 1024,
    }));
  return {
    firstLoadKb: chunks.filter((c) => first.has(c.file)).reduce((sum, c) => sum + c.gzipKb, 0),
    chunks,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function writeReport(
  dir: string,
  result: {
    scale: number;
    runs: Run[];
    bundle: ReturnType<typeof bundleSizes>;
  },
): string {
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${new Date().toISOString().slice(0, 10)}-web-dashboard`);
  fs.writeFileSync(`${base}.json`, JSON.stringify(result, null, 2) + '\n');
  const row = (kind: Run['kind'], what: string) => {
    const runs = result.runs.filter((r) => r.kind === kind);
    const drawnMs = runs.map((r) => r.drawnMs);
    const ok = Math.max(...drawnMs) <= GOAL_MS ? 'met' : 'missed';
    return `| ${what} | ${runs.length} | ${median(drawnMs).toFixed(0)} | ${Math.max(...drawnMs).toFixed(0)} | ${median(runs.map((r) => r.mainThreadBusyMs)).toFixed(0)} | ${ok} |`;
  };
  const lines = [
    `# The web app's dashboard, a year of the benchmark account (${new Date().toISOString().slice(0, 10)})`,
    '',
    `\`npm run bench:web\` on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.versions.node}, dataset scale ${result.scale} (${scaledSize(result.scale).shifts.toLocaleString('en')} shifts), the owner's view of 2025 by week (\`${VIEW}\`), Debian's Chromium, headless. Times are read from a Chromium trace of each run. Goal: drawn within ${GOAL_MS} ms.`,
    '',
    '| run | runs | drawn, median (ms) | drawn, slowest (ms) | main thread busy, median (ms) | goal |',
    '|---|---|---|---|---|---|',
    row('cold', 'cold: reload of the signed-in tab (page, code, chart chunk, queries, drawing)'),
    row('warm', 'warm: Show again (the queries and the drawing)'),
    '',
    `First-load JavaScript: **${result.bundle.firstLoadKb.toFixed(1)} KB gzipped** (budget 200 KB).`,
    '',
    '| chunk | gzipped (KB) |',
    '|---|---|',
    ...result.bundle.chunks.map((c) => `| \`${c.file}\` | ${c.gzipKb.toFixed(1)} |`),
    '',
  ];
  fs.writeFileSync(`${base}.md`, lines.join('\n'));
  return `${base}.md`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
