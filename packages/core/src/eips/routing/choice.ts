import { checkPredicate, invalid, recordBlock, siteOf } from "../../dsl/option-checks.js";
import type { PredicateOf, RouteDsl } from "../../dsl/route-dsl.js";
import { defineVerb, type Recorder } from "../../dsl/verbs.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import type { StepDefinition } from "../../model/route-definition.js";
import type { ChoiceBranch, ChoiceDefinition } from "../../model/step-definition.js";

/** The body type a block leaves: what its callback's returned route carries, unknown otherwise. */
type BodyAfter<TStep> = TStep extends RouteDsl<infer TResult> ? TResult : unknown;

declare const branchResult: unique symbol;

/** Records the branches of a `choice`: `c.when(p, step).when(...).otherwise(step)`. */
export interface ChoiceBuilder<TBody, TResult = never> {
  /** A branch: runs `step` when `predicate` holds and no earlier branch matched. */
  when<TStep>(
    predicate: PredicateOf<TBody>,
    step: (route: RouteDsl<TBody>) => TStep,
  ): ChoiceBuilder<TBody, TResult | BodyAfter<TStep>>;
  /** The branch taken when no `when` matched; last, at most once. */
  otherwise<TStep>(step: (route: RouteDsl<TBody>) => TStep): ChoiceComplete<TResult | BodyAfter<TStep>>;
  readonly [branchResult]?: TResult;
}

/** A choice with its `otherwise` recorded: nothing may follow. */
export interface ChoiceComplete<TResult> {
  readonly complete: true;
  readonly [branchResult]?: TResult;
}

/** The runtime recorder behind `c` (validates the order of `when` and `otherwise`). */
function recordBranches(recorder: Recorder, build: (choice: never) => unknown): ChoiceDefinition {
  const branches: ChoiceBranch[] = [];
  let otherwise: StepDefinition[] | undefined;
  const builder = {
    complete: true,
    when(predicate: unknown, step: unknown) {
      if (otherwise !== undefined)
        throw invalid(
          siteOf(recorder, "choice"),
          "has a when() after otherwise(): otherwise() must come last",
        );
      const checked = checkPredicate(
        siteOf(recorder, "choice"),
        predicate,
        `a predicate in when() #${branches.length + 1}`,
      );
      branches.push({
        predicate: checked,
        steps: recordBlock(
          siteOf(recorder, "choice"),
          recorder,
          step,
          `the step of when() #${branches.length + 1}`,
        ),
      });
      return builder;
    },
    otherwise(step: unknown) {
      if (otherwise !== undefined)
        throw invalid(siteOf(recorder, "choice"), "has otherwise() twice: it may appear once, last");
      if (branches.length === 0)
        throw invalid(siteOf(recorder, "choice"), "has otherwise() before any when()");
      otherwise = recordBlock(siteOf(recorder, "choice"), recorder, step, "the step of otherwise()");
      return builder;
    },
  };
  build(builder as never);
  if (branches.length === 0) {
    throw invalid(
      siteOf(recorder, "choice"),
      'needs at least one when(), e.g. choice((c) => c.when("${header.kind} == \'a\'", (r) => r.to("mock:a")))',
    );
  }
  return { type: "choice", branches, otherwise };
}

export const choiceVerb = defineVerb({
  record: (recorder, build: unknown): ChoiceDefinition => {
    if (typeof build !== "function") {
      throw invalid(
        siteOf(recorder, "choice"),
        `expects a callback (c) => c.when(predicate, step)..., found ${typeof build}`,
      );
    }
    return recordBranches(recorder, build as (choice: never) => unknown);
  },
  step: {
    type: "choice",
    compile: (definition, scope) => {
      const predicates = definition.branches.map((branch) => scope.predicate(branch.predicate));
      const blocks = definition.branches.map((branch, index) =>
        scope.compileSteps(branch.steps, `${scope.label} when #${index + 1}`),
      );
      const otherwise: Processor | undefined =
        definition.otherwise === undefined
          ? undefined
          : scope.compileSteps(definition.otherwise, `${scope.label} otherwise`);
      const count = predicates.length;
      // First match wins; the chosen block's result is returned as is (no promise for synchronous branches).
      return (exchange: Exchange) => {
        for (let index = 0; index < count; index++) {
          if (predicates[index]!(exchange)) return blocks[index]!(exchange);
        }
        return otherwise === undefined ? undefined : otherwise(exchange);
      };
    },
    shape: {
      blocks: (definition) => [
        ...definition.branches.map((branch, index) => ({
          name: `when #${index + 1}`,
          suffix: ` when #${index + 1}`,
          options: { predicate: branch.predicate },
          steps: branch.steps,
        })),
        ...(definition.otherwise === undefined
          ? []
          : [{ name: "otherwise", suffix: " otherwise", options: {}, steps: definition.otherwise }]),
      ],
      runsUserCode: false,
    },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Content-based router: the first `when` whose predicate holds runs its step; `otherwise`
     * runs when none matched; without `otherwise` an unmatched exchange continues unchanged.
     */
    choice<TResult>(build: (choice: ChoiceBuilder<TBody>) => ChoiceComplete<TResult>): RouteDsl<TResult>;
    choice<TResult>(
      build: (choice: ChoiceBuilder<TBody>) => ChoiceBuilder<TBody, TResult>,
    ): RouteDsl<TBody | TResult>;
  }
}
