import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, run, subscribe } from './client';
import {
  ShiftEventsDocument,
  type ShiftEventsSubscription,
  type TypedDocumentString,
} from './generated';

export type ShiftEvent = ShiftEventsSubscription['shiftEvents'];

export interface Loaded<Result> {
  data: Result | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

/**
 * A query that runs when its variables change; `reload` runs it again. `loading` is true from the
 * render that changes the variables until their answer, so old data never passes for new.
 */
export function useApi<Result, Variables extends object>(
  document: TypedDocumentString<Result, Variables>,
  variables: Variables,
  skip = false,
): Loaded<Result> {
  const key = JSON.stringify(variables);
  const [state, setState] = useState<{
    data: Result | undefined;
    error: ApiError | undefined;
    /** The variables of the request under way, or of the last answer. */
    key: string | undefined;
    loading: boolean;
  }>({ data: undefined, error: undefined, key: undefined, loading: false });
  const latest = useRef(0);
  const load = useCallback(async () => {
    if (skip) return;
    const ticket = ++latest.current;
    setState((s) => ({ ...s, key, loading: true }));
    try {
      const data = await run(document, JSON.parse(key) as Variables);
      if (ticket === latest.current) setState({ data, error: undefined, key, loading: false });
    } catch (error) {
      if (ticket === latest.current)
        setState((s) => ({ ...s, error: asApiError(error), loading: false }));
    }
  }, [document, key, skip]);
  useEffect(() => void load(), [load]);
  return {
    data: state.data,
    error: state.error,
    loading: !skip && (state.loading || state.key !== key),
    reload: load,
  };
}

/** Calls `onEvent` for each punch or shift change the viewer may see, while mounted. */
export function useShiftEvents(onEvent: (event: ShiftEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(
    () => subscribe(ShiftEventsDocument, {}, (data) => handler.current(data.shiftEvents)),
    [],
  );
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(error instanceof Error ? error.message : String(error), undefined);
}
