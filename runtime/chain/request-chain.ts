import type { Answer, BuildRoute, ChainRun, Exchange } from './exchange/index.js';
import { checkStages, type Next, type Stage } from './stage.js';

/** A route's compiled chain. An exchange keeps the one it ran through, so a recompile or a restart in flight never changes its hooks. */
class Compiled implements ChainRun {
  constructor(
    readonly stages: readonly Stage[],
    /** The terminal itself when no stage applies: the route is answered synchronously. */
    readonly run: Next,
    private readonly after: readonly Stage[] = [],
    private readonly decorators: readonly Stage[] = [],
  ) {}

  written(ex: Exchange, answer: Answer): void {
    for (const stage of this.after) (stage.afterAnswer as NonNullable<Stage['afterAnswer']>)(ex, answer);
  }

  decorate(ex: Exchange, answer: Answer): Answer {
    return this.decorators.reduce((adjusted, stage) => (stage.decorate as NonNullable<Stage['decorate']>)(ex, adjusted), answer);
  }
}

/**
 * The stages compiled per route (and for "no route matched"), ending in the terminal. Changes
 * reported by stages mark the chain stale; it recompiles once, when next read, however many
 * stages reported (one chaos update touches every chaos stage), and only routes whose list of
 * stages changed are composed anew.
 */
export class RequestChain {
  private readonly stages: readonly Stage[];
  private readonly bare: Compiled;
  private routes: readonly BuildRoute[] = [];
  private compiled: Compiled[] = [];
  private unmatched: Compiled;
  private stale = false;
  private compilations = 0;

  /** `terminal` answers what no stage answered (mock generation). */
  constructor(stages: readonly Stage[], terminal: Next) {
    this.stages = checkStages(stages);
    this.bare = new Compiled([], terminal);
    this.unmatched = this.bare;
    const changed = (): void => {
      this.stale = true;
    };
    for (const stage of this.stages) stage.watch?.(changed);
    this.stale = true;
  }

  /** The routes of the build being served (again after a restart). */
  setRoutes(routes: readonly BuildRoute[]): void {
    this.routes = routes;
    this.compiled = routes.map(() => this.bare);
    this.recompile();
  }

  /** Hot path: the exchange's compiled chain, kept on it for the hooks after the answer. */
  enter(ex: Exchange): Next {
    const compiled = this.compiledOf(ex.route);
    ex.chain = compiled;
    return compiled.run;
  }

  /** Names of the stages that run for the route, in order (the admin API and tests read it). */
  stagesOf(route: BuildRoute | null): string[] {
    return this.compiledOf(route).stages.map((s) => s.name);
  }

  /** How many times the chain recompiled (tests read it). */
  get recompiles(): number {
    return this.compilations;
  }

  private compiledOf(route: BuildRoute | null): Compiled {
    if (this.stale) this.recompile();
    return route === null ? this.unmatched : (this.compiled[route.index] ?? this.bare);
  }

  private recompile(): void {
    this.stale = false;
    this.compilations++;
    this.routes.forEach((route, i) => (this.compiled[i] = this.compile(route, this.compiled[i])));
    this.unmatched = this.compile(null, this.unmatched);
  }

  private compile(route: BuildRoute | null, previous: Compiled): Compiled {
    const stages = this.stages.filter((stage) => stage.appliesTo(route));
    if (stages.length === previous.stages.length && stages.every((s, i) => s === previous.stages[i])) return previous;
    if (stages.length === 0) return this.bare;
    const run = stages.reduceRight<Next>((next, stage) => (ex: Exchange): Answer | Promise<Answer> => stage.run(ex, next), this.bare.run);
    return new Compiled(
      stages,
      run,
      stages.filter((s) => s.afterAnswer !== undefined),
      stages.filter((s) => s.decorate !== undefined),
    );
  }
}
