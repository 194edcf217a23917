/** Thrown by withDeadline when the work took longer than allowed. */
export class DeadlineExceededError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} took longer than ${ms} ms`);
    this.name = 'DeadlineExceededError';
  }
}

/**
 * `work`, or a DeadlineExceededError after `ms`. The work itself is not cancelled (a query waiting
 * for a pooled connection gives up at the pool's own acquire timeout): a probe or a scrape must
 * answer in time even while the database does not.
 */
export async function withDeadline<T>(work: PromiseLike<T>, ms: number, what: string): Promise<T> {
  // Once: a knex query builder is a thenable that runs its query again on every `then`.
  const settled = Promise.resolve(work);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(what, ms)), ms);
  });
  try {
    return await Promise.race([settled, deadline]);
  } finally {
    clearTimeout(timer);
    // A late failure of the abandoned work must not become an unhandled rejection.
    settled.catch(() => undefined);
  }
}
