import type { StepDefinition } from "@routekit/core";
import type { StepInfo } from "@routekit/core/internal";
import { DurationSamples } from "./duration-samples.js";

/** Live counters of one step of one route. */
export class StepStats {
  readonly routeId: string;
  readonly path: string;
  readonly label: string;
  readonly index: number;
  readonly definition: StepDefinition;
  /** A step of the route's own list, not inside a block. */
  readonly topLevel: boolean;
  /** Times the step started while the console recorded. */
  calls = 0;
  /** Times it ended (with or without an error). */
  ended = 0;
  /** Times it ended with an error (thrown, rejected or left on the exchange). */
  failures = 0;
  /** Durations of the step's runs while the console recorded. */
  readonly durations: DurationSamples;

  constructor(step: StepInfo, samples: number) {
    this.routeId = step.routeId;
    this.path = step.path;
    this.label = step.label;
    this.index = step.index;
    this.definition = step.definition;
    this.topLevel = step.path === step.label;
    this.durations = new DurationSamples(samples);
  }
}

/** The steps of one route as the console saw them compiled, and the route's own durations. */
export class RouteStats {
  readonly routeId: string;
  readonly steps: StepStats[] = [];
  /** The steps by path, as step events name them. */
  readonly byPath = new Map<string, StepStats>();
  readonly durations: DurationSamples;

  constructor(routeId: string, samples: number) {
    this.routeId = routeId;
    this.durations = new DurationSamples(samples);
  }

  #topLevel: StepStats[] | undefined;

  add(step: StepStats): void {
    this.steps.push(step);
    this.byPath.set(step.path, step);
    this.#topLevel = undefined;
  }

  /** The route's own steps (not those inside blocks), in order. */
  topLevel(): StepStats[] {
    this.#topLevel ??= this.steps
      .filter((step) => step.topLevel)
      .sort((left, right) => left.index - right.index);
    return this.#topLevel;
  }
}

/** Every route's and step's counters, created as routes are compiled. */
export class StatsRegistry {
  readonly routes = new Map<string, RouteStats>();
  readonly #samples: number;

  constructor(samples: number) {
    this.#samples = samples;
  }

  /** The counters of a step being compiled; a route compiled again (re-added) starts afresh. */
  addStep(step: StepInfo): StepStats {
    let route = this.routes.get(step.routeId);
    if (route === undefined || route.steps.some((known) => known.path === step.path)) {
      route = new RouteStats(step.routeId, this.#samples);
      this.routes.set(step.routeId, route);
    }
    const stats = new StepStats(step, this.#samples);
    route.add(stats);
    return stats;
  }

  /** The counters of step `path` of route `routeId`, when the console saw it compiled. */
  step(routeId: string, path: string): StepStats | undefined {
    return this.routes.get(routeId)?.byPath.get(path);
  }

  forget(routeId: string): void {
    this.routes.delete(routeId);
  }
}
