import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, onReconnected, run, subscribe } from './client';
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
 * A query that runs when its variables (or `generation`) change; `reload` runs it again. `loading`
 * is true from the render that changes them until their answer, so old data never passes for new.
 */
export function useApi<Result, Variables extends object>(
  document: TypedDocumentString<Result, Variables>,
  variables: Variables,
  {
    skip = false,
    generation = 0,
  }: {
    skip?: boolean;
    /** Asks again, with the same variables, whenever it changes (a refresh after events). */
    generation?: number;
  } = {},
): Loaded<Result> {
  const asked = JSON.stringify(variables);
  // What a request is for: the variables, and the generation that asks them again.
  const key = `${generation}:${asked}`;
  const [state, setState] = useState<{
    data: Result | undefined;
    /** The variables `data` answers (serialised). */
    answered: string | undefined;
    error: ApiError | undefined;
    /** The variables of the request under way, or of the last answer. */
    key: string | undefined;
    loading: boolean;
  }>({ data: undefined, answered: undefined, error: undefined, key: undefined, loading: false });
  const latest = useRef(0);
  const load = useCallback(async () => {
    if (skip) return;
    const ticket = ++latest.current;
    setState((s) => ({ ...s, key, loading: true }));
    try {
      const data = await run(document, JSON.parse(asked) as Variables);
      if (ticket === latest.current)
        setState({ data, answered: asked, error: undefined, key, loading: false });
    } catch (error) {
      if (ticket === latest.current)
        setState((s) => ({ ...s, error: asApiError(error), loading: false }));
    }
  }, [document, key, skip]);
  useEffect(() => void load(), [load]);
  // The answer to these variables only: another week's rows never show under this week's dates.
  // The same variables asked again (a refresh) keep their last answer until the new one.
  return {
    data: state.answered === asked ? state.data : undefined,
    error: state.error,
    loading: !skip && (state.loading || state.key !== key),
    reload: load,
  };
}

/**
 * Calls `onChange` for each punch or shift change the viewer may see, while mounted, and with no
 * event after the live connection came back: what happened meanwhile is unknown, read it again.
 */
export function useShiftEvents(onChange: (event: ShiftEvent | undefined) => void): void {
  const handler = useRef(onChange);
  handler.current = onChange;
  useEffect(() => {
    const unsubscribe = subscribe(ShiftEventsDocument, {}, (data) =>
      handler.current(data.shiftEvents),
    );
    const unlisten = onReconnected(() => handler.current(undefined));
    return () => {
      unsubscribe();
      unlisten();
    };
  }, []);
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(error instanceof Error ? error.message : String(error), undefined);
}
