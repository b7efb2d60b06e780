import { NEEDS_UPSTREAM, checkSchedule, type TimeSchedule } from '../../../chain/continuum/index.js';
import { PatternError } from '../../../../common/patterns/index.js';
import { requestPath } from '../../../match/index.js';
import { bodyChecker } from '../body-schema.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

/** Manual overrides kept at most: each is a glob every continuum request may test. */
export const MAX_MANUAL_RATIOS = 1000;

const RATIO = { anyOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'null' }] };
const TIMESTAMP = { type: 'string', minLength: 1 };

const checkRatio = bodyChecker<{ path?: string; group?: string; ratio: number | null }>({
  type: 'object',
  additionalProperties: false,
  required: ['ratio'],
  properties: { path: { type: 'string', minLength: 1, maxLength: 1000 }, group: { type: 'string', minLength: 1, maxLength: 200 }, ratio: RATIO },
});
const checkScheduleBody = bodyChecker<TimeSchedule>({
  type: 'object',
  additionalProperties: false,
  required: ['start_time', 'end_time'],
  properties: {
    start_time: TIMESTAMP,
    end_time: TIMESTAMP,
    start_ratio: { type: 'number', minimum: 0, maximum: 1 },
    end_ratio: { type: 'number', minimum: 0, maximum: 1 },
    curve: { enum: ['linear', 'exponential', 'sigmoid'] },
  },
});
const checkAdvance = bodyChecker<{ increment: number }>({
  type: 'object',
  additionalProperties: false,
  required: ['increment'],
  properties: { increment: { type: 'number', minimum: -1, maximum: 1 } },
});
const checkEnabled = bodyChecker<{ enabled: boolean }>({ type: 'object', additionalProperties: false, required: ['enabled'], properties: { enabled: { type: 'boolean' } } });

/** The ratio a path gets now, with the continuum's settings (the spec's GET ratio answer, plus the level that decided). */
const ratioOf = (call: AdminCall, path: string) => ok(call.ctx.live.continuum.view(requestPath(path)));

/**
 * The reality continuum (docs/proxy-continuum.md): a path's ratio and its manual override (or a
 * group's), the time schedule, the manual step of the default ratio, on and off. Writes are the
 * admin role's when auth is on.
 */
export const continuumRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'continuum/ratio',
    handler: async (call) => {
      const path = call.query.get('path');
      if (path === null || path === '') throw new AdminError(400, 'continuum/ratio: give the path as a query parameter, e.g. GET /__mock/continuum/ratio?path=/api/users/1');
      return ratioOf(call, path);
    },
  },
  {
    method: 'PUT',
    path: 'continuum/ratio',
    handler: async (call) => {
      const body = checkRatio(call.json(), 'continuum/ratio');
      if ((body.path === undefined) === (body.group === undefined)) throw new AdminError(400, 'continuum/ratio: give either path (a path glob) or group, with ratio (0..1, or null to remove the override)');
      const continuum = call.ctx.live.continuum;
      if (body.group !== undefined) {
        await continuum.setGroupRatio(body.group, body.ratio);
        call.ctx.logger.info({ group: body.group, ratio: body.ratio }, 'admin: continuum group ratio set');
        return ok({ group: body.group, ratio: body.ratio });
      }
      const path = body.path as string;
      if (body.ratio !== null && continuum.manualPatterns.length >= MAX_MANUAL_RATIOS && !continuum.manualPatterns.includes(path)) {
        throw new AdminError(409, `continuum/ratio: ${MAX_MANUAL_RATIOS} paths have a manual ratio already; remove one first (PUT {"path": …, "ratio": null})`);
      }
      try {
        await continuum.setPathRatio(path, body.ratio);
      } catch (e) {
        if (e instanceof PatternError) throw new AdminError(400, `continuum/ratio: path: the glob ${e.message}`);
        throw e;
      }
      call.ctx.logger.info({ path, ratio: body.ratio }, 'admin: continuum manual ratio set');
      return ratioOf(call, path);
    },
  },
  { method: 'GET', path: 'continuum/schedule', handler: (call) => ok(call.ctx.live.continuum.timeSchedule) },
  {
    method: 'PUT',
    path: 'continuum/schedule',
    handler: async (call) => {
      const schedule = checkScheduleBody(call.json(), 'continuum/schedule');
      const problems = checkSchedule(schedule, 'continuum/schedule');
      if (problems.length > 0) throw new AdminError(400, problems[0]);
      await call.ctx.live.continuum.setSchedule(schedule);
      call.ctx.logger.info({ schedule }, 'admin: continuum schedule set');
      return ok(call.ctx.live.continuum.timeSchedule);
    },
  },
  {
    method: 'POST',
    path: 'continuum/advance',
    handler: async (call) => {
      const { increment } = checkAdvance(call.json(), 'continuum/advance');
      const ratio = await call.ctx.live.continuum.advance(increment);
      call.ctx.logger.info({ increment, default_ratio: ratio }, 'admin: continuum default ratio advanced');
      return ratioOf(call, call.query.get('path') ?? '/');
    },
  },
  {
    method: 'PUT',
    path: 'continuum/enabled',
    handler: async (call) => {
      const { enabled } = checkEnabled(call.json(), 'continuum/enabled');
      if (enabled && call.ctx.live.proxy.upstream_url === null) throw new AdminError(400, `continuum/enabled: ${NEEDS_UPSTREAM}, or POST /__mock/config/proxy {"upstream_url": …}`);
      await call.ctx.live.continuum.setEnabled(enabled);
      call.ctx.logger.info({ enabled }, 'admin: continuum switched');
      return ratioOf(call, call.query.get('path') ?? '/');
    },
  },
];
