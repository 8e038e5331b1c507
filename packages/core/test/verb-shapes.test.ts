import {
  createContext,
  type Exchange,
  groupedBodies,
  type RouteContext,
  type StepDefinition,
} from "@routekit/core";
import {
  defineVerb,
  describeStep,
  installVerbs,
  type RouteDescription,
  type StepDescription,
  stepShape,
} from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";
// The list itself is internal to core: read where it is declared.
import { CORE_VERBS } from "../src/eips/core-verbs.js";

// The shape a verb's descriptor declares is what describe() reports; these tests hold it to what
// the compiler runs: the step paths an interceptor sees when the route is compiled.

/** A step as the compiler handed it to the interceptors. */
interface CompiledStep {
  readonly path: string;
  readonly definition: StepDefinition;
}

/** A context whose interceptor notes every step compiled (every path a step runs under). */
function recordingContext(): { context: RouteContext; compiled: CompiledStep[] } {
  const compiled: CompiledStep[] = [];
  const context = createContext({ logLevel: "off" });
  context.addInterceptor({
    name: "paths",
    wrapStep(step, next) {
      compiled.push({ path: step.path, definition: step.definition });
      return next;
    },
  });
  return { context, compiled };
}

function describedPaths(steps: readonly StepDescription[]): string[] {
  return steps.flatMap((step) => [step.path, ...step.blocks.flatMap((block) => describedPaths(block.steps))]);
}

/** The paths of the steps compile functions make of their own, as their shapes declare them. */
function innerPaths(compiled: readonly CompiledStep[]): string[] {
  return compiled.flatMap(({ path, definition }) =>
    (stepShape(definition.type)?.innerBlocks?.(definition) ?? []).flatMap((block) =>
      block.steps.map((step, index) => `${path}${block.suffix} > ${describeStep(step, index)}`),
    ),
  );
}

/** What describe() reports of the routes and what the compiler ran, side by side (sorted). */
function compare(context: RouteContext, compiled: readonly CompiledStep[]) {
  const routes: readonly RouteDescription[] = context.describe().routes;
  const described = routes.flatMap((route) => describedPaths(route.steps));
  return {
    described: [...described, ...innerPaths(compiled)].sort(),
    compiled: compiled.map((step) => step.path).sort(),
  };
}

const mergeBodies = (original: Exchange, resource: Exchange): Exchange => {
  original.body = [original.body, resource.body];
  return original;
};

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

describe("core verbs' shapes", () => {
  it("describe() reports the steps every core verb compiles, at the paths they run under", async () => {
    const recording = recordingContext();
    context = recording.context;
    await context.addRoutes((r) => {
      r.from("direct:resource")
        .routeId("resource")
        .setBody(() => "resource");
      r.from("direct:every")
        .routeId("every")
        .description("one of each")
        .onException(TypeError, { handled: true })
        .errorHandler({ maximumRedeliveries: 1 })
        .process(() => undefined, "first")
        .to("mock:to")
        .toD("mock:${header.kind}")
        .setBody("${body}")
        .transform(() => 1)
        .setHeader("a", "${body}")
        .removeHeader("a")
        .setProperty("p", "${body}")
        .log("seen ${body}")
        .choice((c) => c.when("${body} == 1", (s) => s.to("mock:one")).otherwise((s) => s.stop()))
        .split("${body}", (s) => s.to("mock:part"), { aggregate: groupedBodies() })
        .multicast(["mock:m1", "mock:m2"])
        .recipientList("${header.targets}")
        .wireTap("mock:tap")
        .enrich("direct:resource", mergeBodies)
        .loop(2, (s) => s.setHeader("looped", "yes"))
        .delay(0)
        .sample(1)
        .throttle(100)
        .circuitBreaker((s) => s.to("mock:guarded"), {
          failureThreshold: 2,
          resetTimeout: 100,
          fallback: (s) => s.to("mock:fallback"),
        })
        .doTry((s) => s.to("mock:try"), {
          catch: [[RangeError, (s) => s.to("mock:caught")]],
          finally: (s) => s.to("mock:finally"),
        })
        .filter("${body} != null")
        .throttle({ concurrent: 2 })
        .idempotentConsumer("${header.id}")
        .aggregate("${header.group}", { strategy: groupedBodies(), completionSize: 2 })
        .to("mock:end");
    });
    const { described, compiled } = compare(context, recording.compiled);
    expect(compiled).toEqual(described);
    // Every verb of core's list that records a step was compiled above.
    const typesCompiled = new Set(recording.compiled.map((step) => step.definition.type));
    const typesListed = Object.values(CORE_VERBS).flatMap((verb) => (verb.step ? [verb.step.type] : []));
    expect(typesListed.filter((type) => !typesCompiled.has(type))).toEqual([]);
    // The paths describe() reports for steps that take the rest of their block nest what follows.
    expect(described.filter((path) => path.endsWith("to(mock:end)"))).toEqual([
      "#22 filter > #1 throttle > #1 idempotentConsumer > #1 aggregate > #1 to(mock:end)",
    ]);
  });
});

describe("a verb whose shape lies", () => {
  it("is caught when its shape declares a block its compile function never compiles", async () => {
    installVerbs({
      claimsFallback: defineVerb({
        record: (recorder, step: (route: never) => unknown) =>
          ({ type: "claimsFallback", steps: recorder.block(step) }) as unknown as StepDefinition,
        step: {
          type: "claimsFallback" as StepDefinition["type"],
          compile: (definition, scope) =>
            scope.compileSteps((definition as unknown as { steps: StepDefinition[] }).steps, scope.label),
          shape: {
            blocks: (definition) => {
              const steps = (definition as unknown as { steps: StepDefinition[] }).steps;
              return [
                { name: "steps", suffix: "", options: {}, steps },
                { name: "fallback", suffix: " fallback", options: {}, steps },
              ];
            },
            runsUserCode: false,
          },
        },
      }),
    });
    const recording = recordingContext();
    context = recording.context;
    await context.addRoutes((r) =>
      (
        r.from("direct:lies") as unknown as { claimsFallback(step: (route: never) => unknown): unknown }
      ).claimsFallback((s: { to(uri: string): unknown }) => s.to("mock:x")),
    );
    const { described, compiled } = compare(context, recording.compiled);
    expect(described).toContain("#1 claimsFallback fallback > #1 to(mock:x)");
    expect(compiled).not.toEqual(described);
  });
});

describe("the compiler, holding a compile function to its verb's shape", () => {
  it("refuses a route whose step takes the rest of its block when its shape says it does not", async () => {
    installVerbs({
      takesRestQuietly: defineVerb({
        record: () => ({ type: "takesRestQuietly" }) as unknown as StepDefinition,
        step: {
          type: "takesRestQuietly" as StepDefinition["type"],
          compile: (_definition, scope) => scope.restOfBlock(),
          shape: { runsUserCode: false },
        },
      }),
      claimsRest: defineVerb({
        record: () => ({ type: "claimsRest" }) as unknown as StepDefinition,
        step: {
          type: "claimsRest" as StepDefinition["type"],
          compile: () => () => undefined,
          shape: { takesRestOfBlock: () => true, runsUserCode: false },
        },
      }),
    });
    context = createContext({ logLevel: "off" });
    type Liars = {
      takesRestQuietly(): { to(uri: string): unknown };
      claimsRest(): { to(uri: string): unknown };
    };
    await expect(
      context.addRoutes((r) =>
        (r.from("direct:quiet").routeId("quiet") as unknown as Liars).takesRestQuietly().to("mock:x"),
      ),
    ).rejects.toThrow(
      "Route 'quiet' step #1 takesRestQuietly: it took the rest of its block, which its shape says it does not; the 'takesRestQuietly' verb's shape and its compile function disagree",
    );
    await expect(
      context.addRoutes((r) =>
        (r.from("direct:claims").routeId("claims") as unknown as Liars).claimsRest().to("mock:x"),
      ),
    ).rejects.toThrow(
      "Route 'claims' step #1 claimsRest: its shape says it takes the rest of its block, it did not",
    );
  });

  it("refuses a route whose step compiles a block its shape does not declare", async () => {
    installVerbs({
      hiddenBlock: defineVerb({
        record: (recorder, step: (route: never) => unknown) =>
          ({ type: "hiddenBlock", steps: recorder.block(step) }) as unknown as StepDefinition,
        step: {
          type: "hiddenBlock" as StepDefinition["type"],
          compile: (definition, scope) =>
            scope.compileSteps(
              (definition as unknown as { steps: StepDefinition[] }).steps,
              `${scope.label} body`,
            ),
          shape: { runsUserCode: false },
        },
      }),
    });
    context = createContext({ logLevel: "off" });
    await expect(
      context.addRoutes((r) =>
        (
          r.from("direct:hidden").routeId("hidden") as unknown as { hiddenBlock(step: unknown): unknown }
        ).hiddenBlock((s: { to(uri: string): unknown }) => s.to("mock:x")),
      ),
    ).rejects.toThrow(
      "Route 'hidden' step #1 hiddenBlock: it compiled a block at '#1 hiddenBlock body' that its shape does not declare",
    );
  });
});
