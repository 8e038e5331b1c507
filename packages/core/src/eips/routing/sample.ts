import { invalid, siteOf } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import { runtime } from "../../exchange/runtime-exchange.js";
import { describeValue } from "../../support/describe-value.js";

/** `sample(everyN)`: one exchange in every `everyN` goes on; the others stop here. */
export interface SampleDefinition {
  readonly type: "sample";
  readonly everyN: number;
}

export const sampleVerb = defineVerb({
  record: (recorder, everyN: unknown): SampleDefinition => {
    if (typeof everyN !== "number" || !Number.isSafeInteger(everyN) || everyN < 1) {
      throw invalid(
        siteOf(recorder, "sample"),
        `expects a whole number >= 1, found ${describeValue(everyN)}`,
      );
    }
    return { type: "sample", everyN };
  },
  step: {
    type: "sample",
    compile: (definition) => {
      const everyN = definition.everyN;
      // Counted per route: the Nth, 2Nth, ... exchange through this step goes on.
      let seen = 0;
      return (exchange) => {
        seen = seen + 1 === everyN ? 0 : seen + 1;
        if (seen !== 0) runtime(exchange).stopped = true;
      };
    },
    shape: { runsUserCode: false },
  },
});

declare module "../../model/step-definition.js" {
  interface StepDefinitions {
    sample: SampleDefinition;
  }
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Sampling throttler: lets one exchange in every `everyN` through (the Nth, the 2Nth, ...);
     * each other one stops here, completed, as `stop()` would stop it.
     */
    sample(everyN: number): RouteDsl<TBody>;
  }
}
