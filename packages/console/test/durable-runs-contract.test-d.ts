import type { RouteContext } from "@routekit/core";
import "@routekit/llm";
import { expectTypeOf, test } from "vitest";
import type { DurableRunsAccess } from "../src/durable-runs.js";

test("context.agents of @routekit/llm is what the console reads and calls", () => {
  expectTypeOf<RouteContext["agents"]>().toExtend<DurableRunsAccess>();
});
