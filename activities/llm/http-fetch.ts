// The fetch both SDKs use: Node's fetch without undici's 300 s header/body timeouts (a reasoning
// model may think longer; the SDK's own per-request timeout still applies), reporting each response's
// status and headers so Retry-After can be read even where the SDK's error hides the headers (Gemini).
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  dispatch(opts: object, handler: unknown): boolean;
}

const noTimeoutDispatcher = {
  dispatch(opts: object, handler: unknown): boolean {
    let global = (globalThis as Record<symbol, Dispatcher | undefined>)[UNDICI_GLOBAL_DISPATCHER];
    if (!global) {
      new Headers(); // makes Node initialise its bundled undici and its global dispatcher
      global = (globalThis as Record<symbol, Dispatcher | undefined>)[UNDICI_GLOBAL_DISPATCHER];
    }
    if (!global) throw new Error("Node's global fetch dispatcher is not available");
    return global.dispatch({ ...opts, headersTimeout: 0, bodyTimeout: 0 }, handler);
  },
};

export interface ResponseMeta {
  status: number;
  headers: Headers;
}

export function observingFetch(onResponse: (meta: ResponseMeta) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, { ...init, dispatcher: noTimeoutDispatcher } as RequestInit);
    onResponse({ status: res.status, headers: res.headers });
    return res;
  };
}
