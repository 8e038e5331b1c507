import { checkExpression, checkOptionKeys, invalid, recordBlock, siteOf } from "../../dsl/option-checks.js";
import type { ExpressionOf, Step } from "../../dsl/route-dsl.js";
import { type CompileScope, defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import { runtime } from "../../exchange/runtime-exchange.js";
import { parseTemplate } from "../../expressions/simple-parser.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import type { LoopDefinition } from "../../model/step-definition.js";
import { describeValue } from "../../support/describe-value.js";
import { LOOP_INDEX, LOOP_SIZE } from "./routing-properties.js";

/** Options of `loop`. */
export interface LoopOptions {
  /**
   * Upper bound of iterations for a condition, or a count computed by an expression; past it the
   * exchange fails. A literal count is its own bound. Default 10000; `Infinity` removes the bound.
   */
  maxIterations?: number;
}

/** Default `maxIterations`. */
export const DEFAULT_MAX_ITERATIONS = 10_000;

const ended = (exchange: Exchange): boolean => {
  const target = runtime(exchange);
  return target.error !== undefined || target.stopped || target.haltedIn !== undefined;
};

/** A count from a number or integer text, or undefined. */
function countOf(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 0 ? number : undefined;
}

export const loopVerb = defineVerb({
  record: (recorder, condition: unknown, step: unknown, options?: unknown): LoopDefinition => {
    if (typeof condition === "number" && countOf(condition) === undefined) {
      throw invalid(
        siteOf(recorder, "loop"),
        `expects a count (an integer >= 0), found ${describeValue(condition)}`,
      );
    }
    const checked =
      typeof condition === "number"
        ? condition
        : checkExpression(siteOf(recorder, "loop"), condition, "a count, an expression or a predicate");
    const steps = recordBlock(siteOf(recorder, "loop"), recorder, step, "the step to repeat");
    const settings = checkOptionKeys(siteOf(recorder, "loop"), options, ["maxIterations"]);
    const maximum = settings.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (
      typeof maximum !== "number" ||
      !(maximum >= 1) ||
      (!Number.isInteger(maximum) && maximum !== Number.POSITIVE_INFINITY)
    ) {
      throw invalid(
        siteOf(recorder, "loop"),
        `option 'maxIterations' must be a positive integer or Infinity, found ${describeValue(maximum)}`,
      );
    }
    return { type: "loop", condition: checked, steps, maxIterations: maximum };
  },
  step: {
    type: "loop",
    compile: (definition, scope) => compileLoop(definition, scope),
    shape: {
      blocks: (definition) => [{ name: "steps", suffix: "", options: {}, steps: definition.steps }],
      runsUserCode: false,
    },
  },
});

/** What every iteration of one loop step uses: its compiled block and its bound. */
interface LoopBody {
  readonly block: Processor;
  readonly maximum: number;
  /** The error of a loop past its bound (`what` says how it got there). */
  tooMany(what: string): RoutekitError;
}

/** Runs the block `count` times; synchronous until an iteration returns a promise. */
function countedLoop({ block }: LoopBody): (exchange: Exchange, count: number) => void | Promise<void> {
  const countedAsync = async (
    exchange: Exchange,
    count: number,
    index: number,
    pending: Promise<void>,
  ): Promise<void> => {
    await pending;
    for (let next = index + 1; next < count && !ended(exchange); next++) {
      exchange.signal.throwIfAborted();
      exchange.properties[LOOP_INDEX] = next;
      exchange.properties[LOOP_SIZE] = count;
      await block(exchange);
    }
  };
  return (exchange, count) => {
    for (let index = 0; index < count; index++) {
      exchange.properties[LOOP_INDEX] = index;
      exchange.properties[LOOP_SIZE] = count;
      const result = block(exchange);
      if (result !== undefined) return countedAsync(exchange, count, index, result);
      if (ended(exchange)) return;
    }
  };
}

/**
 * Runs the block while `test` holds, checked before each iteration (`holds` is its value before
 * the first); synchronous until an iteration returns a promise.
 */
function whileLoop({
  block,
  maximum,
  tooMany,
}: LoopBody): (
  exchange: Exchange,
  test: (exchange: Exchange) => boolean,
  holds: boolean,
) => void | Promise<void> {
  const whileAsync = async (
    exchange: Exchange,
    test: (exchange: Exchange) => boolean,
    index: number,
    pending: Promise<void>,
  ): Promise<void> => {
    await pending;
    for (let next = index + 1; !ended(exchange) && test(exchange); next++) {
      if (next >= maximum) throw tooMany(`the condition still holds after ${next} iterations`);
      exchange.signal.throwIfAborted();
      exchange.properties[LOOP_INDEX] = next;
      await block(exchange);
    }
  };
  return (exchange, test, holds) => {
    for (let index = 0; index === 0 ? holds : test(exchange); index++) {
      if (index >= maximum) throw tooMany(`the condition still holds after ${index} iterations`);
      exchange.properties[LOOP_INDEX] = index;
      const result = block(exchange);
      if (result !== undefined) return whileAsync(exchange, test, index, result);
      if (ended(exchange)) return;
    }
  };
}

function compileLoop(definition: LoopDefinition, scope: CompileScope): Processor {
  const maximum = definition.maxIterations;
  const where = `Route '${scope.routeId}' step ${scope.label}`;
  const tooMany = (what: string): RoutekitError =>
    new RoutekitError(
      "STEP_FAILED",
      `${where}: ${what} (maxIterations ${maximum}); raise maxIterations or fix the loop condition`,
    );
  const body: LoopBody = { block: scope.compileSteps(definition.steps, scope.label), maximum, tooMany };
  const counted = countedLoop(body);
  const whileHolds = whileLoop(body);

  const condition = definition.condition;
  const literal =
    typeof condition === "number"
      ? condition
      : typeof condition === "string"
        ? countOf(condition)
        : undefined;
  if (literal !== undefined) return (exchange) => counted(exchange, literal);
  if (typeof condition === "number") return (exchange) => counted(exchange, condition);
  if (typeof condition === "string" && !isSingleExpression(condition)) {
    // Text such as "${header.n} < 3" reads as one predicate, as in filter and choice.
    const test = scope.predicate(condition);
    return (exchange) => whileHolds(exchange, test, test(exchange));
  }
  // A function or one `${...}`: a number is a count, a boolean a condition checked before each iteration.
  const evaluate = scope.expression(condition);
  const test = (exchange: Exchange): boolean => {
    const value = evaluate(exchange);
    if (typeof value === "boolean") return value;
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `${where}: the loop condition yielded ${describeValue(value)}, expected a boolean`,
    );
  };
  return (exchange) => {
    const value = evaluate(exchange);
    if (typeof value === "boolean") return whileHolds(exchange, test, value);
    const count = countOf(value);
    if (count === undefined) {
      throw new RoutekitError(
        "EXPRESSION_FAILED",
        `${where}: the loop expression yielded ${describeValue(value)}, expected a count (an integer >= 0) or a boolean`,
      );
    }
    if (count > maximum) throw tooMany(`the loop expression asked for ${count} iterations`);
    return counted(exchange, count);
  };
}

/** True for text that is exactly one `${...}` (its value keeps its type). */
function isSingleExpression(text: string): boolean {
  const parts = parseTemplate(text);
  return parts.length === 1 && typeof parts[0] !== "string";
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Repeats `step` on the same exchange: a count (number or expression yielding one), or a
     * condition checked before each iteration (a predicate, or an expression yielding a boolean).
     * Property `loop.index` holds the 0-based iteration.
     */
    loop(
      countOrPredicate: number | ExpressionOf<TBody, number | string | boolean>,
      step: Step<TBody>,
      options?: LoopOptions,
    ): RouteDsl<TBody>;
  }
}
