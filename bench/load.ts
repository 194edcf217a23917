import autocannon from 'autocannon';

/**
 * The load generator, run as a process of its own (forked by run.ts) so that its CPU never counts
 * against the server's: autocannon with a spec from the parent, the summary sent back as a message.
 */
export interface LoadSpec {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The write mix: each request punches the next user in or out of their project. */
  readonly punches?: readonly { readonly authorization: string; readonly projectUuid: string }[];
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly latencyP50: number;
  readonly latencyP99: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

function run(spec: LoadSpec): Promise<LoadResult> {
  let next = 0;
  const punchedIn = new Map<number, boolean>();
  const punches = spec.punches;
  const requests = punches
    ? [
        {
          setupRequest: (request: Record<string, unknown>) => {
            const user = next++ % punches.length;
            const action = punchedIn.get(user) ? 'punch_out' : 'punch_in';
            punchedIn.set(user, !punchedIn.get(user));
            return {
              ...request,
              method: 'POST',
              path: `/api/1/projects/${punches[user]!.projectUuid}/${action}.json`,
              headers: {
                authorization: punches[user]!.authorization,
                'content-type': 'application/json',
              },
              body: '{}',
            };
          },
        },
      ]
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSeconds,
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.body ? { body: spec.body } : {}),
        ...(requests ? { requests: requests as never } : {}),
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.average,
          latencyP50: result.latency.p50,
          latencyP99: result.latency.p99,
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
  });
}

if (require.main === module) {
  process.once('message', (spec: LoadSpec) => {
    run(spec).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
