import autocannon from 'autocannon';

/**
 * The soak's load generator, run as a process of its own (forked by soak.ts, like load.ts for the
 * benchmark) so that its CPU never counts against the server's RSS or latency. It runs one
 * autocannon instance per lane of the mix, all at once for the whole soak, records every answer
 * into the time slice in which it arrived, and sends each slice to the parent as soon as it ends.
 */

/** A lane reading one or more paths in turn (GET, or POST of a fixed body such as a GraphQL query). */
export interface ReadLane {
  readonly kind: 'read';
  readonly name: string;
  readonly connections: number;
  readonly method: 'GET' | 'POST';
  readonly paths: readonly string[];
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** Each request punches the next user in or out of their project (as scenario e of the benchmark). */
export interface PunchLane {
  readonly kind: 'punch';
  readonly name: string;
  readonly connections: number;
  readonly punches: readonly { readonly authorization: string; readonly projectUuid: string }[];
  /** The notes of every punch-in: the soak's marker. */
  readonly notes: string;
}

/**
 * Each connection creates a stopped shift (JSON POST with a unique Idempotency-Key), then updates
 * it (JSON PUT of its stop and notes), and again.
 */
export interface WriteLane {
  readonly kind: 'write';
  readonly name: string;
  readonly connections: number;
  readonly authorization: string;
  readonly projectUuids: readonly string[];
  readonly userUuids: readonly string[];
  /** Every created shift's notes start with this. */
  readonly marker: string;
  /** A unique prefix of the Idempotency-Keys of this run. */
  readonly keyPrefix: string;
}

export type Lane = ReadLane | PunchLane | WriteLane;

export interface SoakSpec {
  readonly url: string;
  readonly durationSeconds: number;
  readonly sliceSeconds: number;
  /** Slices starting before this are warm-up: left out of the `measured` summary. */
  readonly warmupSeconds: number;
  readonly lanes: readonly Lane[];
}

/** What one lane (or all of them) did in one slice. Latency percentiles are over 2xx answers, in ms. */
export interface SliceStats {
  readonly requests: number;
  readonly ok: number;
  /** 422 answers: expected from racing punches. */
  readonly unprocessable: number;
  /** Other 4xx answers. */
  readonly other4xx: number;
  readonly server5xx: number;
  /** 1xx and 3xx answers (none expected). */
  readonly otherStatus: number;
  /** Connection errors and timeouts (no answer at all). */
  readonly errors: number;
  readonly timeouts: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly statusCodes: Record<string, number>;
}

export interface Slice {
  readonly index: number;
  /** Seconds since the load started. */
  readonly from: number;
  readonly to: number;
  readonly total: SliceStats;
  readonly lanes: Record<string, SliceStats>;
}

/** The slices after warm-up, all lanes together and each lane, as one sample. */
export interface Summary {
  readonly total: SliceStats;
  readonly lanes: Record<string, SliceStats>;
}

export type WorkerMessage =
  | { readonly type: 'started'; readonly t0: number }
  | { readonly type: 'slice'; readonly slice: Slice }
  | { readonly type: 'done'; readonly measured: Summary };

class Bucket {
  latencies: number[] = [];
  statusCodes: Record<string, number> = {};
  errors = 0;
  timeouts = 0;

  response(status: number, ms: number): void {
    this.statusCodes[status] = (this.statusCodes[status] ?? 0) + 1;
    if (status >= 200 && status < 300) this.latencies.push(ms);
  }

  stats(): SliceStats {
    const count = (test: (status: number) => boolean) =>
      Object.entries(this.statusCodes)
        .filter(([status]) => test(Number(status)))
        .reduce((sum, [, n]) => sum + n, 0);
    const sorted = Float64Array.from(this.latencies).sort();
    const at = (q: number) =>
      sorted.length ? Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!) : NaN;
    return {
      requests: count(() => true) + this.errors,
      ok: count((s) => s >= 200 && s < 300),
      unprocessable: count((s) => s === 422),
      other4xx: count((s) => s >= 400 && s < 500 && s !== 422),
      server5xx: count((s) => s >= 500),
      otherStatus: count((s) => s < 200 || (s >= 300 && s < 400)),
      errors: this.errors,
      timeouts: this.timeouts,
      p50: at(0.5),
      p99: at(0.99),
      max: sorted.length ? Math.round(sorted[sorted.length - 1]!) : NaN,
      statusCodes: this.statusCodes,
    };
  }

  static merge(buckets: Bucket[]): Bucket {
    const all = new Bucket();
    for (const b of buckets) {
      all.latencies = all.latencies.concat(b.latencies);
      for (const [status, n] of Object.entries(b.statusCodes))
        all.statusCodes[status] = (all.statusCodes[status] ?? 0) + n;
      all.errors += b.errors;
      all.timeouts += b.timeouts;
    }
    return all;
  }
}

type Request = Record<string, unknown>;
type Context = { uuid?: string; start?: number };

/** The autocannon `requests` of a lane: each entry's setupRequest builds the next request. */
function requestsOf(lane: Lane): {
  setupRequest: (request: Request, context: Context) => Request | undefined;
  onResponse?: (status: number, body: string, context: Context) => void;
}[] {
  let next = 0;
  switch (lane.kind) {
    case 'read':
      return [
        {
          setupRequest: (request) => ({
            ...request,
            method: lane.method,
            path: lane.paths[next++ % lane.paths.length]!,
            headers: lane.headers,
            ...(lane.body ? { body: lane.body } : {}),
          }),
        },
      ];
    case 'punch': {
      const punchedIn = new Map<number, boolean>();
      const body = JSON.stringify({ notes: lane.notes });
      return [
        {
          setupRequest: (request) => {
            const user = next++ % lane.punches.length;
            const action = punchedIn.get(user) ? 'punch_out' : 'punch_in';
            punchedIn.set(user, !punchedIn.get(user));
            return {
              ...request,
              method: 'POST',
              path: `/api/1/projects/${lane.punches[user]!.projectUuid}/${action}.json`,
              headers: {
                authorization: lane.punches[user]!.authorization,
                'content-type': 'application/json',
              },
              body: action === 'punch_in' ? body : '{}',
            };
          },
        },
      ];
    }
    case 'write': {
      // Created shifts start in 2026, after the shifts of the dataset and outside the window of the
      // shift-list lane, and one after the other, so that the read lanes' answers keep their size.
      const base = Date.parse('2026-01-02T00:00:00Z');
      const headers = { authorization: lane.authorization, 'content-type': 'application/json' };
      return [
        {
          setupRequest: (request, context) => {
            const n = next++;
            const start = base + (n % 200_000) * 60_000;
            context.start = start;
            return {
              ...request,
              method: 'POST',
              path: '/api/1/shifts.json',
              headers: { ...headers, 'idempotency-key': `${lane.keyPrefix}-${n}` },
              body: JSON.stringify({
                shift: {
                  project_uuid: lane.projectUuids[n % lane.projectUuids.length],
                  user_uuid: lane.userUuids[n % lane.userUuids.length],
                  start: new Date(start).toISOString(),
                  stop: new Date(start + 45 * 60_000).toISOString(),
                  notes: `${lane.marker} create ${n}`,
                  billable: n % 3 !== 0,
                },
              }),
            };
          },
          onResponse: (status, body, context) => {
            if (status !== 200) return;
            try {
              context.uuid = (JSON.parse(body) as { response?: { uuid?: string } }).response?.uuid;
            } catch {
              // Counted by its status; the update is skipped.
            }
          },
        },
        {
          // Falsy when the create failed: autocannon then starts again with a create.
          setupRequest: (request, context) =>
            context.uuid && context.start
              ? {
                  ...request,
                  method: 'PUT',
                  path: `/api/1/shifts/${context.uuid}.json`,
                  headers,
                  body: JSON.stringify({
                    shift: {
                      stop: new Date(context.start + 90 * 60_000).toISOString(),
                      notes: `${lane.marker} updated`,
                    },
                  }),
                }
              : undefined,
        },
      ];
    }
  }
}

function run(
  spec: SoakSpec,
  send: (message: WorkerMessage, done?: () => void) => void,
): Promise<void> {
  const t0 = Date.now();
  const slices = Math.max(1, Math.ceil(spec.durationSeconds / spec.sliceSeconds));
  const buckets = Array.from(
    { length: slices },
    () => new Map(spec.lanes.map((lane) => [lane.name, new Bucket()])),
  );
  const sliceNow = () =>
    Math.min(slices - 1, Math.floor((Date.now() - t0) / (spec.sliceSeconds * 1000)));
  const sent = new Set<number>();
  const flush = (index: number) => {
    if (sent.has(index)) return;
    sent.add(index);
    const lanes = buckets[index]!;
    send({
      type: 'slice',
      slice: {
        index,
        from: index * spec.sliceSeconds,
        to: Math.min(spec.durationSeconds, (index + 1) * spec.sliceSeconds),
        total: Bucket.merge([...lanes.values()]).stats(),
        lanes: Object.fromEntries([...lanes].map(([name, bucket]) => [name, bucket.stats()])),
      },
    });
  };
  // Each slice but the last is sent when it ends; answers arriving later go to the next slice.
  const timers = Array.from({ length: slices - 1 }, (_, i) =>
    setTimeout(() => flush(i), (i + 1) * spec.sliceSeconds * 1000 + 20),
  );
  send({ type: 'started', t0 });

  const instances = spec.lanes.map(
    (lane) =>
      new Promise<void>((resolve, reject) => {
        const instance = autocannon(
          {
            url: spec.url,
            connections: lane.connections,
            duration: spec.durationSeconds,
            timeout: 30,
            requests: requestsOf(lane) as never,
          },
          (error) => (error ? reject(error) : resolve()),
        );
        instance.on('response', (_client, statusCode, _bytes, ms) =>
          buckets[sliceNow()]!.get(lane.name)!.response(statusCode, ms),
        );
        instance.on('reqError', (error: Error) => {
          const bucket = buckets[sliceNow()]!.get(lane.name)!;
          bucket.errors++;
          if (/timed out/.test(String(error?.message))) bucket.timeouts++;
        });
      }),
  );
  return Promise.all(instances).then(
    () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout);
        for (let i = 0; i < slices; i++) flush(i);
        const after = buckets.filter((_, i) => i * spec.sliceSeconds >= spec.warmupSeconds);
        const measured = after.length ? after : buckets.slice(-1);
        const lane = (name: string) => Bucket.merge(measured.map((b) => b.get(name)!));
        send(
          {
            type: 'done',
            measured: {
              total: Bucket.merge(spec.lanes.map((l) => lane(l.name))).stats(),
              lanes: Object.fromEntries(spec.lanes.map((l) => [l.name, lane(l.name).stats()])),
            },
          },
          resolve,
        );
      }),
  );
}

if (require.main === module) {
  process.once('message', (spec: SoakSpec) => {
    run(spec, (message, done) => process.send!(message, () => done?.())).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
