// Heartbeats on behalf of activities that do not send their own, so every activity kind has a short
// heartbeat timeout (temporal-config/timeouts.ts) and a killed worker is noticed within seconds
// rather than at the end of a startToClose timeout. Activities that heartbeat themselves, with
// details the next attempt reads (LLM usage, sandbox own-failure counts), are left alone: a bare
// heartbeat from here would overwrite those details.
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { HEARTBEAT_TICK_MS } from '../temporal-config/timeouts.js';

export const SELF_HEARTBEATING: ReadonlySet<string> = new Set(['callLlm', 'runScript', 'runJob']);

export const heartbeatTicker: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      if (SELF_HEARTBEATING.has(ctx.info.activityType)) return next(input);
      ctx.heartbeat();
      const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_TICK_MS);
      try {
        return await next(input);
      } finally {
        clearInterval(timer);
      }
    },
  },
});
