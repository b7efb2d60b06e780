import { isDateInstant, MAX_INSTANT_MS } from '../../common/instant.js';

/** One step of time_travel.schedule: at a virtual instant, jump to another or advance by a duration. */
export interface ScheduledStep {
  /** Epoch ms, virtual. */
  at: number;
  jumpTo?: number;
  advanceBy?: number;
}

export interface ClockOptions {
  /** --now, or the seed's instant: the clock stands still there while time travel is off. */
  pinned?: number;
  /** time_travel of mock.yaml. */
  timeTravel?: { enabled: boolean; initialTime?: number; scaleFactor: number; schedule: readonly ScheduledStep[] };
}

/** What GET /api/v2/time (and the dashboard, GET /__mock/config) show. */
export interface ClockStatus {
  enabled: boolean;
  /** ISO 8601: the instant the mock answers with. */
  virtual_time: string;
  real_time: string;
  scale_factor: number;
  /** Steps of the schedule not reached yet. */
  pending_schedule: Array<{ at: string; jump_to?: string; advance_by_ms?: number }>;
}

/**
 * The one clock of the process: `{{now}}` tokens, generated date-times, timed state transitions,
 * time-based continuum ratios and fixture timestamps all read it. Off, it is the real clock (or
 * the pinned instant of --now / --seed). On, virtual time runs from an anchor at scale_factor times
 * the real pace; set and advance move the anchor, and schedule steps apply once virtual time
 * reaches them (read lazily, so no timer runs).
 */
export class VirtualClock {
  private on = false;
  private anchorVirtual = 0;
  private anchorReal = 0;
  private scale: number;
  private steps: ScheduledStep[];
  private readonly listeners: Array<() => void> = [];
  /** Bound once: handed to the generators and templates as their clock. */
  readonly read = (): number => this.now();

  constructor(private readonly options: ClockOptions = {}) {
    const travel = options.timeTravel;
    this.scale = travel?.scaleFactor ?? 1;
    this.steps = [...(travel?.schedule ?? [])].sort((a, b) => a.at - b.at);
    if (travel?.enabled === true) this.start(travel.initialTime ?? options.pinned ?? Date.now());
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Epoch ms: virtual while time travel is on. */
  now(): number {
    if (!this.on) return this.options.pinned ?? Date.now();
    let virtual = this.virtualAt(Date.now());
    while (this.steps.length > 0 && virtual >= this.steps[0].at) {
      const step = this.steps.shift() as ScheduledStep;
      this.anchor(step.jumpTo ?? step.at + (step.advanceBy ?? 0) + (virtual - step.at));
      virtual = this.anchorVirtual;
    }
    return virtual;
  }

  /** Turns time travel on (from the current instant, or where it stood) or off (the real clock again). */
  enable(on: boolean): void {
    if (on === this.on) return;
    if (on) this.start(this.options.pinned ?? Date.now());
    else this.on = false;
    this.announce();
  }

  /**
   * Virtual time to `instant` (turns time travel on). RangeError, changing nothing, when a Date
   * cannot hold it: an invalid instant stored here would break every reader of the clock.
   */
  set(instant: number): void {
    if (!isDateInstant(instant)) throw new RangeError(`${instant} ms from 1970 is past the last instant a date holds (${new Date(MAX_INSTANT_MS).toISOString()})`);
    if (!this.on) this.on = true;
    this.anchor(instant);
    this.announce();
  }

  /** Virtual time forward by `ms` (turns time travel on); RangeError, changing nothing, past the last instant a date holds. */
  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  setScale(factor: number): void {
    this.anchor(this.now());
    this.scale = factor;
    this.announce();
  }

  /** Called after every jump of virtual time (caches of answers made at another instant drop them). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  status(): ClockStatus {
    const now = this.now();
    return {
      enabled: this.on,
      virtual_time: new Date(now).toISOString(),
      real_time: new Date().toISOString(),
      scale_factor: this.scale,
      pending_schedule: this.steps.map((s) => ({
        at: new Date(s.at).toISOString(),
        ...(s.jumpTo === undefined ? {} : { jump_to: new Date(s.jumpTo).toISOString() }),
        ...(s.advanceBy === undefined ? {} : { advance_by_ms: s.advanceBy }),
      })),
    };
  }

  private start(instant: number): void {
    this.on = true;
    this.anchor(instant);
  }

  private anchor(virtual: number): void {
    this.anchorVirtual = clamp(virtual);
    this.anchorReal = Date.now();
  }

  private virtualAt(real: number): number {
    // a fast clock left running (or a schedule's jump) may run past what a date holds: it stops there
    return clamp(this.anchorVirtual + (real - this.anchorReal) * this.scale);
  }

  private announce(): void {
    for (const listener of this.listeners) listener();
  }
}

const clamp = (ms: number): number => Math.max(-MAX_INSTANT_MS, Math.min(MAX_INSTANT_MS, ms));
