import { parseDuration } from '../../../../common/duration.js';
import { isDateInstant, MAX_INSTANT_MS } from '../../../../common/instant.js';
import { bodyChecker } from '../body-schema.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

const checkSet = bodyChecker<{ time: string | number }>({
  type: 'object',
  additionalProperties: false,
  required: ['time'],
  properties: { time: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'number' }] } },
});
const checkAdvance = bodyChecker<{ duration: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['duration'],
  properties: { duration: { type: 'string', minLength: 1 } },
});
const checkEnable = bodyChecker<{ enabled: boolean }>({ type: 'object', additionalProperties: false, required: ['enabled'], properties: { enabled: { type: 'boolean' } } });
const checkScale = bodyChecker<{ scale_factor: number }>({
  type: 'object',
  additionalProperties: false,
  required: ['scale_factor'],
  properties: { scale_factor: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 } },
});

/** An ISO 8601 instant (or epoch milliseconds) in epoch milliseconds; a 400 naming the endpoint otherwise. */
function instant(value: string | number, what: string): number {
  const ms = typeof value === 'number' ? value : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!isDateInstant(ms)) throw new AdminError(400, `${what}: time ${JSON.stringify(value)} is not an ISO 8601 instant such as 2025-01-01T00:00:00Z (or epoch milliseconds)`);
  return ms;
}

/** A value as an error shows it: a long one cut (it was the client's own). */
const shown = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

const status = (call: AdminCall, message: string) => ok({ message, ...call.ctx.live.clock.status() });

/**
 * Time travel: the virtual clock behind {{now}}, generated date-times, timed state transitions and
 * time-based continuum ratios. The spec writes these under /api/v2/time/; they answer there on the
 * admin port and under /__mock/time/.
 */
export const timeRoutes: AdminRoute[] = [
  { method: 'GET', path: 'time', handler: (call) => status(call, call.ctx.live.clock.enabled ? 'time travel is on' : 'time travel is off: the real clock') },
  {
    method: 'POST',
    path: 'time/set',
    handler: async (call) => {
      const { time } = checkSet(call.json(), 'time/set');
      await call.ctx.live.clock.set(instant(time, 'time/set'));
      call.ctx.logger.info({ time }, 'admin: virtual time set');
      return status(call, `virtual time set to ${new Date(call.ctx.live.clock.now()).toISOString()}`);
    },
  },
  {
    method: 'POST',
    path: 'time/advance',
    handler: async (call) => {
      const { duration } = checkAdvance(call.json(), 'time/advance');
      const ms = parseDuration(duration);
      if (ms === undefined) throw new AdminError(400, `time/advance: duration ${shown(duration)} is not a duration such as 500ms, 30s, 10m, 1h, 2d or 1h30m`);
      try {
        await call.ctx.live.clock.advance(ms);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        throw new AdminError(400, `time/advance: advancing by ${shown(duration)} would pass the last instant a date holds (${new Date(MAX_INSTANT_MS).toISOString()}); advance by less, or pick an instant with time/set`);
      }
      call.ctx.logger.info({ duration }, 'admin: virtual time advanced');
      return status(call, `virtual time advanced by ${duration}`);
    },
  },
  {
    method: 'POST',
    path: 'time/enable',
    handler: async (call) => {
      const { enabled } = checkEnable(call.json(), 'time/enable');
      await call.ctx.live.clock.enable(enabled);
      call.ctx.logger.info({ enabled }, 'admin: time travel switched');
      return status(call, enabled ? 'time travel is on' : 'time travel is off: the real clock');
    },
  },
  {
    method: 'POST',
    path: 'time/scale',
    handler: async (call) => {
      const { scale_factor } = checkScale(call.json(), 'time/scale');
      await call.ctx.live.clock.setScale(scale_factor);
      return status(call, `virtual time runs at ${scale_factor}x`);
    },
  },
];
