import { Client, fetchExchange, type CombinedError } from '@urql/core';
import { createClient as createLiveClient } from 'graphql-ws';
import { authorization, refresh } from '../auth/oauth-session';
import type { TypedDocumentString } from './generated';

/**
 * The app's one way to the API: /graphql over HTTP (urql) and graphql-ws on the same URL for live
 * events, both with the OAuth bearer token, as any other client would.
 */

/** A refusal of the API, with its `extensions.code` and the fields it names. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly fieldErrors: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

const http = new Client({
  url: '/graphql',
  exchanges: [fetchExchange],
  requestPolicy: 'network-only',
  preferGetMethod: false,
  fetchOptions: () => ({ headers: { authorization: authorization() } }),
});

const reconnected = new Set<() => void>();

const live = createLiveClient({
  url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
  lazy: true,
  // Read at each connection, so a reconnection after a refresh carries the new token.
  connectionParams: () => ({ authorization: authorization() }),
  retryAttempts: Number.MAX_SAFE_INTEGER,
  shouldRetry: () => true,
  // Back off to 30 s at most (graphql-ws's own wait grows without bound), with some jitter.
  retryWait: (retries) =>
    new Promise((resolve) =>
      setTimeout(resolve, Math.min(30_000, 1000 * 2 ** retries) + Math.random() * 1000),
    ),
  on: { connected: (_socket, _payload, wasRetry) => wasRetry && reconnected.forEach((f) => f()) },
});

/** Called after the live connection came back from a drop (events may have been missed). */
export function onReconnected(listener: () => void): () => void {
  reconnected.add(listener);
  return () => reconnected.delete(listener);
}

/** Runs a query or mutation; after a 401 it refreshes the token once and tries again. */
export async function run<Result, Variables extends object>(
  document: TypedDocumentString<Result, Variables>,
  variables: Variables,
): Promise<Result> {
  const query = String(document);
  // urql keeps the two kinds apart (a mutation is never deduplicated or served from a cache).
  const isMutation = /^\s*mutation\b/.test(query);
  for (let attempt = 0; ; attempt++) {
    const result = isMutation
      ? await http.mutation<Result>(query, variables).toPromise()
      : await http.query<Result>(query, variables).toPromise();
    if (result.error) {
      if (attempt === 0 && unauthenticated(result.error) && (await refresh())) continue;
      throw apiError(result.error);
    }
    return result.data as Result;
  }
}

/** Subscribes to a live operation; answers the function that ends it. */
export function subscribe<Result, Variables extends object>(
  document: TypedDocumentString<Result, Variables>,
  variables: Variables,
  onData: (data: Result) => void,
): () => void {
  return live.subscribe<Result>(
    { query: String(document), variables: variables as Record<string, unknown> },
    {
      next: (message) => message.data && onData(message.data),
      // A refused subscription (its token revoked meanwhile) ends; the page still works, and
      // the next reconnection after a refresh subscribes again when the page remounts.
      error: () => undefined,
      complete: () => undefined,
    },
  );
}

/** The bearer token for a download of the legacy API (report.csv, .xlsx, .pdf). */
export async function download(path: string, fileName: string): Promise<void> {
  const get = () => fetch(path, { headers: { authorization: authorization() } });
  let res = await get();
  if (res.status === 401 && (await refresh())) res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as
      { error?: { message?: string } } | undefined;
    throw new ApiError(body?.error?.message ?? `HTTP ${res.status}`, undefined);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function unauthenticated(error: CombinedError): boolean {
  return (
    error.response?.status === 401 ||
    error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')
  );
}

function apiError(error: CombinedError): ApiError {
  const first = error.graphQLErrors[0];
  if (!first) return new ApiError(error.networkError?.message ?? error.message, undefined);
  const extensions = first.extensions as {
    code?: string;
    fieldErrors?: { field: string; message: string }[];
  };
  return new ApiError(first.message, extensions.code, extensions.fieldErrors ?? []);
}
