import { isDateInstant, MAX_INSTANT_MS } from '../../common/instant.js';
import { Cell, MemoryStore, settingsBudget, type Awaitable, type Store } from '../store/index.js';

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

/** Where the clock stands, as the `clock` key of the settings store keeps it. */
interface ClockRecord {
  on: boolean;
  /** Virtual epoch ms at anchorReal. */
  anchorVirtual: number;
  /** Real epoch ms of the last anchoring. */
  anchorReal: number;
  scale: number;
  /** Schedule steps not reached yet, earliest first. */
  steps: ScheduledStep[];
}

/**
 * The one clock of the process: `{{now}}` tokens, generated date-times, timed state transitions,
 * time-based continuum ratios and fixture timestamps all read it. Off, it is the real clock (or
 * the pinned instant of --now / --seed). On, virtual time runs from an anchor at scale_factor times
 * the real pace; set and advance move the anchor, and schedule steps apply once virtual time
 * reaches them (read lazily, so no timer runs). Where it stands lives in the settings store (the
 * `clock` key), so every instance sharing the store reads the same virtual time.
 */
export class VirtualClock {
  private readonly cell: Cell<ClockRecord>;
  private readonly listeners: Array<() => void> = [];
  /** While a schedule step moves the clock as it is read: not announced, as before the store. */
  private stepping = false;
  /** Bound once: handed to the generators and templates as their clock. */
  readonly read = (): number => this.now();

  constructor(
    private readonly options: ClockOptions = {},
    settings: Store<unknown> = new MemoryStore('settings', settingsBudget),
  ) {
    const travel = options.timeTravel;
    const initial: ClockRecord = { on: false, anchorVirtual: 0, anchorReal: 0, scale: travel?.scaleFactor ?? 1, steps: [...(travel?.schedule ?? [])].sort((a, b) => a.at - b.at) };
    if (travel?.enabled === true) Object.assign(initial, { on: true }, anchored(travel.initialTime ?? options.pinned ?? Date.now()));
    this.cell = new Cell(settings as Store<ClockRecord>, 'clock', initial);
    this.cell.onChange(() => {
      if (!this.stepping) this.announce();
    });
  }

  get enabled(): boolean {
    return this.cell.get().on;
  }

  /** Epoch ms: virtual while time travel is on. */
  now(): number {
    const clock = this.cell.get();
    if (!clock.on) return this.options.pinned ?? Date.now();
    const virtual = virtualAt(clock, Date.now());
    return clock.steps.length > 0 && virtual >= clock.steps[0].at ? this.step(clock, virtual) : virtual;
  }

  /** Turns time travel on (from the current instant, or where it stood) or off (the real clock again). */
  enable(on: boolean): Awaitable<void> {
    const clock = this.cell.get();
    if (on === clock.on) return;
    return this.write(on ? { ...clock, on, ...anchored(this.options.pinned ?? Date.now()) } : { ...clock, on });
  }

  /**
   * Virtual time to `instant` (turns time travel on). RangeError, changing nothing, when a Date
   * cannot hold it: an invalid instant stored here would break every reader of the clock.
   */
  set(instant: number): Awaitable<void> {
    if (!isDateInstant(instant)) throw new RangeError(`${instant} ms from 1970 is past the last instant a date holds (${new Date(MAX_INSTANT_MS).toISOString()})`);
    return this.write({ ...this.cell.get(), on: true, ...anchored(instant) });
  }

  /** Virtual time forward by `ms` (turns time travel on); RangeError, changing nothing, past the last instant a date holds. */
  advance(ms: number): Awaitable<void> {
    return this.set(this.now() + ms);
  }

  setScale(factor: number): Awaitable<void> {
    const now = this.now();
    return this.write({ ...this.cell.get(), ...anchored(now), scale: factor });
  }

  /** Called after every jump of virtual time (caches of answers made at another instant drop them). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  status(): ClockStatus {
    const now = this.now();
    const clock = this.cell.get();
    return {
      enabled: clock.on,
      virtual_time: new Date(now).toISOString(),
      real_time: new Date().toISOString(),
      scale_factor: clock.scale,
      pending_schedule: clock.steps.map((s) => ({
        at: new Date(s.at).toISOString(),
        ...(s.jumpTo === undefined ? {} : { jump_to: new Date(s.jumpTo).toISOString() }),
        ...(s.advanceBy === undefined ? {} : { advance_by_ms: s.advanceBy }),
      })),
    };
  }

  /** Applies the schedule's steps virtual time has reached, once: they leave the schedule. */
  private step(clock: ClockRecord, reached: number): number {
    const steps = [...clock.steps];
    let virtual = reached;
    let anchor = { anchorVirtual: clock.anchorVirtual, anchorReal: clock.anchorReal };
    while (steps.length > 0 && virtual >= steps[0].at) {
      const step = steps.shift() as ScheduledStep;
      anchor = anchored(step.jumpTo ?? step.at + (step.advanceBy ?? 0) + (virtual - step.at));
      virtual = anchor.anchorVirtual;
    }
    this.stepping = true;
    try {
      // read on the request path, which goes on with the instant reached; a lost shared store keeps the steps for the next read
      const written = this.write({ ...clock, ...anchor, steps });
      if (written instanceof Promise) written.catch(() => undefined);
    } finally {
      this.stepping = false;
    }
    return virtual;
  }

  /** Settles once the store holds the clock (every instance sharing it reads the same instant then). */
  private write(clock: ClockRecord): Awaitable<void> {
    return this.cell.set(clock);
  }

  private announce(): void {
    for (const listener of this.listeners) listener();
  }
}

const clamp = (ms: number): number => Math.max(-MAX_INSTANT_MS, Math.min(MAX_INSTANT_MS, ms));

/** Virtual time anchored at `virtual` now. */
const anchored = (virtual: number): Pick<ClockRecord, 'anchorVirtual' | 'anchorReal'> => ({ anchorVirtual: clamp(virtual), anchorReal: Date.now() });

// a fast clock left running (or a schedule's jump) may run past what a date holds: it stops there
const virtualAt = (clock: ClockRecord, real: number): number => clamp(clock.anchorVirtual + (real - clock.anchorReal) * clock.scale);
