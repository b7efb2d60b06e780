import type { LinearPattern } from '../../../common/patterns/index.js';
import { createFastRandomizer } from '../../../common/generate/fast-randomizer.js';
import { compileGlob, globMayReach, templateSegments } from '../../match/index.js';
import { DEFAULT_CONTINUUM, type ContinuumConfig, type MergeStrategy, type TimeSchedule, type TransitionMode } from './config.js';
import { readSchedule, scheduleRatio, type Schedule } from './schedule.js';
import { andThen, Cell, MemoryStore, settingsBudget, type Awaitable, type Store } from '../../store/index.js';

/** Which level of the precedence gave a path its ratio, highest first. */
export type RatioLevel = 'manual' | 'route' | 'group' | 'schedule' | 'default';

export interface ContinuumOptions {
  /** reality_continuum, checked (config.ts); absent: off, ratio 0, manual, field_level. */
  config?: ContinuumConfig;
  /** --seed: the same seed and request order draw the same sources. */
  seed?: number;
  /** The process's clock (virtual while time travel is on): time-based ratios read it. */
  clock: () => number;
  /** The settings store, which keeps what the admin API changes (the `continuum` key); default: one of its own in memory. */
  settings?: Store<unknown>;
}

/** What the admin API changes, as the settings store keeps it; the rest is mock.yaml's and fixed. */
interface Steered {
  on: boolean;
  default_ratio: number;
  schedule: Partial<TimeSchedule> | null;
  /** Newest first. */
  manual: Array<{ pattern: string; ratio: number }>;
  groups: Record<string, number>;
}

/** What GET /__mock/continuum/ratio answers. */
export interface RatioView {
  path: string;
  blend_ratio: number;
  enabled: boolean;
  transition_mode: TransitionMode;
  merge_strategy: MergeStrategy;
  default_ratio: number;
  /** Which level decided blend_ratio. */
  level: RatioLevel;
}

interface RouteRule {
  pattern: string;
  glob: LinearPattern;
  ratio?: number;
  group?: string;
}

interface Manual {
  pattern: string;
  glob: LinearPattern;
  ratio: number;
}

const clamp = (ratio: number): number => Math.min(1, Math.max(0, ratio));

/**
 * The reality continuum's live state: on or off, the ratios of every level and the seeded
 * draws. Ratio precedence, highest first: a manual override (PUT /__mock/continuum/ratio {path};
 * the newest whose glob matches), a route rule with a ratio (the first in routes[] whose pattern
 * matches), a group override (the group of the first matching rule that names a group with a
 * ratio: reality_continuum.groups or PUT ratio {group}), the time schedule (time_based and
 * scheduled modes, on the virtual clock), the default ratio.
 *
 * Scope: with route rules, the paths an enabled rule or a manual override matches; without any,
 * every path. Changes of scope or of on/off are announced (the request chain recompiles); ratios
 * are read per request.
 */
export class ContinuumState {
  /** The `continuum` key of the settings store; what follows is compiled from it on every change. */
  private readonly steered: Cell<Steered>;
  private on = false;
  private defaultRatio = 0;
  private readonly mode: TransitionMode;
  private readonly strategy: MergeStrategy;
  private schedule: Schedule | undefined;
  private readonly rules: RouteRule[];
  private groups = new Map<string, number>();
  /** Newest first: the newest override whose glob matches wins. */
  private manual: Manual[] = [];
  private readonly random: { next(): number };
  private readonly clock: () => number;
  private readonly listeners: Array<() => void> = [];
  /** Bound once: the merges draw from it. */
  readonly draw = (): number => this.random.next();

  constructor(options: ContinuumOptions) {
    const config = options.config ?? DEFAULT_CONTINUUM;
    this.mode = config.transition_mode;
    this.strategy = config.merge_strategy;
    this.rules = (config.routes ?? [])
      .filter((route) => route.enabled !== false)
      .map((route) => ({ pattern: route.pattern, glob: compileGlob(route.pattern), ratio: route.ratio, group: route.group }));
    this.random = createFastRandomizer(options.seed);
    this.clock = options.clock;
    const initial: Steered = { on: config.enabled, default_ratio: config.default_ratio, schedule: config.time_schedule ?? null, manual: [], groups: { ...config.groups } };
    this.steered = new Cell((options.settings ?? new MemoryStore('settings', settingsBudget)) as Store<Steered>, 'continuum', initial);
    this.compile(this.steered.get());
    this.steered.onChange((steered) => {
      const scope = this.on !== steered.on || this.manual.length !== steered.manual.length || this.manual.some((m, i) => m.pattern !== steered.manual[i].pattern);
      this.compile(steered);
      if (scope) this.announce();
    });
  }

  get enabled(): boolean {
    return this.on;
  }

  get mergeStrategy(): MergeStrategy {
    return this.strategy;
  }

  /** The path globs with a manual override. */
  get manualPatterns(): string[] {
    return this.manual.map((m) => m.pattern);
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Each change settles once the store holds it (every instance sharing it blends the same way then). */
  setEnabled(on: boolean): Awaitable<void> {
    if (on !== this.on) return this.steer({ on });
  }

  /** The manual override of a path glob; null removes it. */
  setPathRatio(pattern: string, ratio: number | null): Awaitable<void> {
    const others = this.steered.get().manual.filter((m) => m.pattern !== pattern);
    return this.steer({ manual: ratio === null ? others : [{ pattern, ratio: clamp(ratio) }, ...others] });
  }

  /** A group's override; null removes it. */
  setGroupRatio(group: string, ratio: number | null): Awaitable<void> {
    const groups = { ...this.steered.get().groups };
    if (ratio === null) delete groups[group];
    else groups[group] = clamp(ratio);
    return this.steer({ groups });
  }

  /** The manual step: moves the default ratio by `increment` (negative steps back), kept within 0..1. */
  advance(increment: number): Awaitable<number> {
    const default_ratio = clamp(this.defaultRatio + increment);
    return andThen(this.steer({ default_ratio }), () => default_ratio);
  }

  get timeSchedule(): TimeSchedule | null {
    return this.schedule?.source ?? null;
  }

  /** A checked schedule (config.ts, checkSchedule). */
  setSchedule(schedule: Partial<TimeSchedule>): Awaitable<void> {
    readSchedule(schedule);
    return this.steer({ schedule });
  }

  /** Whether the continuum may answer requests routed to `route` (null: no route matched). */
  mayApply(route: { path: string } | null): boolean {
    if (!this.on) return false;
    if (this.rules.length === 0 || route === null) return true;
    const template = templateSegments(route.path);
    for (const rule of this.rules) if (globMayReach(rule.pattern, template)) return true;
    for (const { pattern } of this.manual) if (globMayReach(pattern, template)) return true;
    return false;
  }

  /** Hot path: whether a request path (`requestPath` form) is the continuum's. */
  covers(path: string): boolean {
    if (this.rules.length === 0) return true;
    for (const rule of this.rules) if (rule.glob.test(path)) return true;
    for (const { glob } of this.manual) if (glob.test(path)) return true;
    return false;
  }

  /** Hot path: a path's ratio and the level that gave it. */
  ratioFor(path: string): { ratio: number; level: RatioLevel } {
    for (const { glob, ratio } of this.manual) if (glob.test(path)) return { ratio, level: 'manual' };
    let group: number | undefined;
    for (const rule of this.rules) {
      if (!rule.glob.test(path)) continue;
      if (rule.ratio !== undefined) return { ratio: rule.ratio, level: 'route' };
      if (group === undefined && rule.group !== undefined) group = this.groups.get(rule.group);
    }
    if (group !== undefined) return { ratio: group, level: 'group' };
    const scheduled = this.schedule === undefined ? undefined : scheduleRatio(this.schedule, this.mode, this.clock());
    if (scheduled !== undefined) return { ratio: scheduled, level: 'schedule' };
    return { ratio: this.defaultRatio, level: 'default' };
  }

  view(path: string): RatioView {
    const { ratio, level } = this.ratioFor(path);
    return { path, blend_ratio: ratio, enabled: this.on, transition_mode: this.mode, merge_strategy: this.strategy, default_ratio: this.defaultRatio, level };
  }

  private steer(change: Partial<Steered>): Awaitable<void> {
    return this.steered.set({ ...this.steered.get(), ...change });
  }

  private compile(steered: Steered): void {
    this.on = steered.on;
    this.defaultRatio = steered.default_ratio;
    this.schedule = steered.schedule === null ? undefined : readSchedule(steered.schedule);
    this.manual = steered.manual.map(({ pattern, ratio }) => ({ pattern, glob: compileGlob(pattern), ratio }));
    this.groups = new Map(Object.entries(steered.groups));
  }

  private announce(): void {
    for (const listener of this.listeners) listener();
  }
}
