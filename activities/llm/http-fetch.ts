// The fetch both SDKs use: Node's fetch with undici's 300 s header timeout off (a reasoning model may
// think longer; the SDK's own per-request timeout bounds the wait for the response's first byte) and
// its body timeout set to the call's timeout (the longest pause allowed between two chunks of the
// body, which neither SDK's timeout covers: both stop their timer once the headers arrive). It reports
// each response's status and headers so Retry-After can be read even where the SDK's error hides the
// headers (Gemini).
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  dispatch(opts: object, handler: unknown): boolean;
}

function dispatcherWith(bodyTimeoutMs: () => number): Dispatcher {
  return {
    dispatch(opts: object, handler: unknown): boolean {
      let global = (globalThis as Record<symbol, Dispatcher | undefined>)[UNDICI_GLOBAL_DISPATCHER];
      if (!global) {
        new Headers(); // makes Node initialise its bundled undici and its global dispatcher
        global = (globalThis as Record<symbol, Dispatcher | undefined>)[UNDICI_GLOBAL_DISPATCHER];
      }
      if (!global) throw new Error("Node's global fetch dispatcher is not available");
      return global.dispatch({ ...opts, headersTimeout: 0, bodyTimeout: Math.max(1, Math.round(bodyTimeoutMs())) }, handler);
    },
  };
}

export interface ResponseMeta {
  status: number;
  headers: Headers;
}

/** `bodyIdleMs` is read at each request: the current turn's timeout. */
export function observingFetch(onResponse: (meta: ResponseMeta) => void, bodyIdleMs: () => number): typeof fetch {
  const dispatcher = dispatcherWith(bodyIdleMs);
  return async (input, init) => {
    const res = await fetch(input, { ...init, dispatcher } as RequestInit);
    onResponse({ status: res.status, headers: res.headers });
    return res;
  };
}

/** Was this error (or one of its causes) undici's body timeout: a response that stopped mid-body? */
export function isBodyTimeout(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, n = 0; e && n < 5; e = e.cause as typeof e, n++) {
    if (e.code === 'UND_ERR_BODY_TIMEOUT') return true;
  }
  return false;
}
