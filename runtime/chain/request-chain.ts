import type { Answer, BuildRoute, Exchange } from '../exchange/index.js';
import { slotRank } from './slots.js';
import { checkStage, type Next, type Stage } from './stage.js';

interface Compiled {
  stages: readonly Stage[];
  /** Undefined when no stage applies: the route is answered by the terminal alone, synchronously. */
  run: Next | undefined;
  after: readonly Stage[];
  decorators: readonly Stage[];
}

const NOTHING: Compiled = { stages: [], run: undefined, after: [], decorators: [] };

/**
 * The stages compiled per route (and for "no route matched"). A stage that says it changed makes
 * every route ask it again; only routes whose list of stages changed are composed anew.
 */
export class RequestChain {
  private readonly stages: readonly Stage[];
  private routes: readonly BuildRoute[] = [];
  private compiled: Compiled[] = [];
  private unmatched: Compiled = NOTHING;

  /** `terminal` answers what no stage answered (mock generation). */
  constructor(
    stages: readonly Stage[],
    private readonly terminal: Next,
  ) {
    // stable: stages sharing a slot keep their registration order
    this.stages = stages.map(checkStage).sort((a, b) => slotRank(a.slot) - slotRank(b.slot));
    for (const stage of this.stages) stage.watch(() => this.recompile());
  }

  /** The routes of the build being served (again after a restart). */
  setRoutes(routes: readonly BuildRoute[]): void {
    this.routes = routes;
    this.compiled = routes.map(() => NOTHING);
    this.recompile();
  }

  /** Hot path. The route's chain, or undefined when the terminal answers alone. */
  runnerOf(route: BuildRoute | null): Next | undefined {
    return (route === null ? this.unmatched : this.compiled[route.index]).run;
  }

  /** The afterAnswer hooks that apply to the route. */
  afterOf(route: BuildRoute | null): readonly Stage[] {
    return (route === null ? this.unmatched : this.compiled[route.index]).after;
  }

  /** An answer made outside the chain (413, 500) as the route's decorating stages would leave it. */
  decorate(ex: Exchange, answer: Answer): Answer {
    const { decorators } = ex.route === null ? this.unmatched : this.compiled[ex.route.index];
    return decorators.reduce((adjusted, stage) => (stage.decorate as NonNullable<Stage['decorate']>)(ex, adjusted), answer);
  }

  /** Names of the stages that run for the route, in order (the admin API and tests read it). */
  stagesOf(route: BuildRoute | null): string[] {
    return (route === null ? this.unmatched : this.compiled[route.index]).stages.map((s) => s.name);
  }

  private recompile(): void {
    this.routes.forEach((route, i) => (this.compiled[i] = this.compile(route, this.compiled[i])));
    this.unmatched = this.compile(null, this.unmatched);
  }

  private compile(route: BuildRoute | null, previous: Compiled): Compiled {
    const stages = this.stages.filter((stage) => stage.appliesTo(route));
    if (stages.length === previous.stages.length && stages.every((s, i) => s === previous.stages[i])) return previous;
    if (stages.length === 0) return NOTHING;
    const run = stages.reduceRight<Next>((next, stage) => (ex: Exchange): Answer | Promise<Answer> => stage.run(ex, next), this.terminal);
    return { stages, run, after: stages.filter((s) => s.afterAnswer !== undefined), decorators: stages.filter((s) => s.decorate !== undefined) };
  }
}
