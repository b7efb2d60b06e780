// The shape of a run: how many of the --vus virtual users are active at each moment. --vus is
// always the peak; every worker evaluates the same function of elapsed time, so together they
// follow the shape without talking to each other.

export const SCENARIOS = ['constant', 'ramp-up', 'spike', 'stress', 'soak'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const SCENARIO_DESCRIPTIONS: Record<Scenario, string> = {
  constant: 'all --vus from the first to the last second',
  'ramp-up': 'linear from 1 VU to --vus over the first two thirds of --duration, then --vus for the last third',
  spike: '10% of --vus (at least 1), all --vus from 40% to 60% of --duration, then 10% again',
  stress: 'steps of 25%, 50%, 75% and 100% of --vus, a quarter of --duration each',
  soak: 'ramps up over the first 5% of --duration (at most 1 minute), holds --vus, ramps down over the last 5%',
};

/** Active fraction of --vus at `fraction` (0..1) of a run of `durationMs`. */
export function activeShare(scenario: Scenario, fraction: number, durationMs: number): number {
  const f = Math.min(1, Math.max(0, fraction));
  switch (scenario) {
    case 'constant':
      return 1;
    case 'ramp-up':
      return f >= 2 / 3 ? 1 : f / (2 / 3);
    case 'spike':
      return f >= 0.4 && f < 0.6 ? 1 : 0.1;
    case 'stress':
      return Math.min(4, Math.floor(f * 4) + 1) / 4;
    case 'soak': {
      const edge = Math.min(0.05, 60_000 / durationMs);
      if (f < edge) return f / edge;
      if (f > 1 - edge) return (1 - f) / edge;
      return 1;
    }
  }
}

/** Virtual users active at `elapsedMs` (at least 1 while the run lasts). */
export function activeVus(scenario: Scenario, vus: number, elapsedMs: number, durationMs: number): number {
  return Math.max(1, Math.min(vus, Math.round(vus * activeShare(scenario, elapsedMs / durationMs, durationMs))));
}
