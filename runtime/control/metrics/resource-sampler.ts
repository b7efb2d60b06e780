export interface ResourceSamplerOptions {
  /** Milliseconds between samples; 5000 unless set. */
  intervalMs?: number;
  /** Samples kept, oldest dropped first; 120 unless set (ten minutes at the default interval). */
  capacity?: number;
  /** Epoch milliseconds, for the sample timestamps. */
  now?: () => number;
}

export interface ResourceUsage {
  /** Resident set size in MB, two decimals. */
  memory_usage_mb: number;
  /** CPU time over wall time, one fully busy core = 100, two decimals. */
  cpu_usage_percent: number;
}

export interface ResourceSample extends ResourceUsage {
  /** Epoch milliseconds. */
  time: number;
}

const MB = 1024 * 1024;
const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * Samples the process's memory and CPU use on an unref'd timer, for the dashboard's graphs. The
 * first sample is taken on construction (its CPU share averaged since the process started), so
 * the lists are never empty.
 */
export class ResourceSampler {
  readonly intervalMs: number;
  readonly capacity: number;
  private readonly now: () => number;
  private readonly samples: ResourceSample[] = [];
  private timer: NodeJS.Timeout | undefined;
  /**
   * CPU time and monotonic wall time at the last sample, the base of the next CPU share. Both
   * count from the process's start, so zero is the right base before the first sample.
   */
  private cpuAt: NodeJS.CpuUsage = { user: 0, system: 0 };
  private wallAt = 0;

  constructor(options: ResourceSamplerOptions = {}) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.capacity = options.capacity ?? 120;
    this.now = options.now ?? Date.now;
    this.sample();
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.sample(), this.intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Memory now; CPU share since the previous sample. */
  current(): ResourceUsage {
    return { memory_usage_mb: memoryMb(), cpu_usage_percent: this.cpuSince(process.cpuUsage(), performance.now()) ?? this.latest.cpu_usage_percent };
  }

  /** `[ISO time, MB]`, oldest first. */
  memoryOverTime(): Array<[string, number]> {
    return this.samples.map((s) => [new Date(s.time).toISOString(), s.memory_usage_mb]);
  }

  /** `[ISO time, percent]`, oldest first. */
  cpuOverTime(): Array<[string, number]> {
    return this.samples.map((s) => [new Date(s.time).toISOString(), s.cpu_usage_percent]);
  }

  private get latest(): ResourceSample {
    return this.samples[this.samples.length - 1];
  }

  private sample(): void {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const share = this.cpuSince(cpu, wall) ?? (this.samples.length > 0 ? this.latest.cpu_usage_percent : 0);
    this.cpuAt = cpu;
    this.wallAt = wall;
    this.samples.push({ time: this.now(), memory_usage_mb: memoryMb(), cpu_usage_percent: share });
    if (this.samples.length > this.capacity) this.samples.shift();
  }

  /** Null when no wall time has passed to divide by. */
  private cpuSince(cpu: NodeJS.CpuUsage, wall: number): number | null {
    const wallUs = (wall - this.wallAt) * 1000;
    if (wallUs <= 0) return null;
    const cpuUs = cpu.user - this.cpuAt.user + (cpu.system - this.cpuAt.system);
    return round2((cpuUs / wallUs) * 100);
  }
}

function memoryMb(): number {
  return round2(process.memoryUsage.rss() / MB);
}
