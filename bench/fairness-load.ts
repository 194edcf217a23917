import autocannon from 'autocannon';

/**
 * The load generator of `npm run bench:fairness`, a process of its own (forked by fairness.ts) so
 * that its bookkeeping is not the server's: the flood lanes (one account's punch-ins and reports,
 * or its documents) run for the whole measurement, and after a warm-up the probe lane (another
 * account's requests, one connection) runs for `durationSeconds`. Every answer's latency is kept,
 * so the percentiles are exact, not autocannon's histogram buckets. The server's event-loop delay
 * is read from its /metrics just before and after the probe's window.
 */
export interface FairnessLane {
  readonly name: string;
  readonly connections: number;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  /** Paths taken in turn, request after request. */
  readonly paths: readonly string[];
  readonly body?: string;
}

export interface FairnessSpec {
  readonly url: string;
  readonly flood: readonly FairnessLane[];
  readonly probe: FairnessLane;
  /** Seconds of flood before the probe starts (0 without a flood). */
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** The server's metrics path (`/metrics`), read before and after the probe's window. */
  readonly metricsPath?: string;
}

/**
 * How late the server's event loop ran a 10 ms timer during the probe's window (prom-client's
 * `nodejs_eventloop_lag_*_seconds`, from perf_hooks.monitorEventLoopDelay, reset by each scrape),
 * in ms.
 */
export interface EventLoopDelay {
  readonly max: number;
  readonly p99: number;
  readonly p90: number;
  readonly mean: number;
}

export interface LaneStats {
  readonly requests: number;
  /** Answers by status code; `error` counts requests without an answer. */
  readonly statusCodes: Record<string, number>;
  /** Of 2xx answers, in ms. */
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /** Of every answer whatever its status, in ms (a refusal's latency too). */
  readonly allP50: number;
  readonly allP99: number;
}

export interface FairnessResult {
  readonly probe: LaneStats;
  /** The flood lanes during the probe's measurement only. */
  readonly flood: Record<string, LaneStats>;
  /** The server's event-loop delay over the probe's window (with `metricsPath`). */
  readonly eventLoop?: EventLoopDelay;
}

class Bucket {
  readonly ok: number[] = [];
  readonly all: number[] = [];
  readonly statusCodes: Record<string, number> = {};

  answer(status: number, ms: number): void {
    this.statusCodes[status] = (this.statusCodes[status] ?? 0) + 1;
    this.all.push(ms);
    if (status >= 200 && status < 300) this.ok.push(ms);
  }

  error(): void {
    this.statusCodes.error = (this.statusCodes.error ?? 0) + 1;
  }

  stats(): LaneStats {
    const at = (values: number[], q: number) => {
      if (values.length === 0) return NaN;
      const sorted = Float64Array.from(values).sort();
      return Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! * 10) / 10;
    };
    return {
      requests: Object.values(this.statusCodes).reduce((a, b) => a + b, 0),
      statusCodes: this.statusCodes,
      p50: at(this.ok, 0.5),
      p90: at(this.ok, 0.9),
      p99: at(this.ok, 0.99),
      max: at(this.ok, 1),
      allP50: at(this.all, 0.5),
      allP99: at(this.all, 0.99),
    };
  }
}

function start(
  url: string,
  lane: FairnessLane,
  seconds: number,
  bucket: () => Bucket | undefined,
): { done: Promise<void>; stop: () => void } {
  let next = 0;
  let instance: autocannon.Instance | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const running = autocannon(
      {
        url,
        connections: lane.connections,
        duration: seconds,
        timeout: 60,
        requests: [
          {
            setupRequest: (request: Record<string, unknown>) => ({
              ...request,
              method: lane.method,
              path: lane.paths[next++ % lane.paths.length],
              headers: lane.headers,
              ...(lane.body ? { body: lane.body } : {}),
            }),
          },
        ] as never,
      },
      (error) => (error ? reject(error) : resolve()),
    );
    running.on('response', (_client, status: number, _bytes, ms: number) =>
      bucket()?.answer(status, ms),
    );
    running.on('reqError', () => bucket()?.error());
    instance = running;
  });
  return { done, stop: () => instance?.stop() };
}

async function run(spec: FairnessSpec): Promise<FairnessResult> {
  // Flood answers are counted only while the probe runs.
  const floodBuckets = new Map(spec.flood.map((lane) => [lane.name, new Bucket()]));
  let probing = false;
  const total = spec.warmupSeconds + spec.durationSeconds + 5;
  const floods = spec.flood.map((lane) =>
    start(spec.url, lane, total, () => (probing ? floodBuckets.get(lane.name) : undefined)),
  );
  await new Promise((resolve) => setTimeout(resolve, spec.warmupSeconds * 1000));
  const probeBucket = new Bucket();
  // The scrape resets the delay histogram: the next one covers the probe's window alone.
  if (spec.metricsPath) await eventLoopDelay(spec.url, spec.metricsPath);
  probing = true;
  await start(spec.url, spec.probe, spec.durationSeconds, () => probeBucket).done;
  probing = false;
  const eventLoop = spec.metricsPath ? await eventLoopDelay(spec.url, spec.metricsPath) : undefined;
  for (const flood of floods) flood.stop();
  await Promise.all(floods.map((f) => f.done));
  return {
    probe: probeBucket.stats(),
    flood: Object.fromEntries([...floodBuckets].map(([name, b]) => [name, b.stats()])),
    ...(eventLoop ? { eventLoop } : {}),
  };
}

/** The event-loop delay since the previous scrape, in ms, from the server's /metrics. */
async function eventLoopDelay(url: string, metricsPath: string): Promise<EventLoopDelay> {
  const res = await fetch(new URL(metricsPath, url));
  if (res.status !== 200) throw new Error(`${metricsPath}: ${res.status}`);
  const text = await res.text();
  const ms = (stat: string) => {
    const match = new RegExp(`^nodejs_eventloop_lag_${stat}_seconds (\\S+)$`, 'm').exec(text);
    if (!match) throw new Error(`${metricsPath} has no nodejs_eventloop_lag_${stat}_seconds`);
    return Math.round(Number(match[1]) * 10_000) / 10;
  };
  return { max: ms('max'), p99: ms('p99'), p90: ms('p90'), mean: ms('mean') };
}

if (require.main === module) {
  process.once('message', (spec: FairnessSpec) => {
    run(spec).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
