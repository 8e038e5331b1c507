import {
  createContext,
  defineComponent,
  defineStep,
  type Exchange,
  groupedBodies,
  type RouteContext,
} from "@routekit/core";
import {
  type BlockDescription,
  defineVerb,
  installVerbs,
  type RouteDescription,
  type StepDescription,
} from "@routekit/core/internal";
import { afterEach, describe, expect, it, vi } from "vitest";

// A verb that marks its route with three aspects, the way asLlmTool marks a tool route.
installVerbs({
  marked: defineVerb({
    record: (recorder, value: unknown) => {
      recorder.route.aspects.broken = value;
      recorder.route.aspects.cyclic = value;
      recorder.route.aspects.plain = value;
      return undefined;
    },
  }),
});

// A step from "another package" taking any arguments: the description must survive whatever they hold.
defineStep(
  "taggedWith",
  (..._tags: unknown[]) =>
    (_exchange: Exchange) =>
      undefined,
);
declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    taggedWith(...tags: unknown[]): RouteDsl<TBody>;
    marked(value: unknown): RouteDsl<TBody>;
  }
}

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

function route(id: string): RouteDescription {
  const found = context.describe().routes.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no route '${id}' in the description`);
  return found;
}

function blockNamed(step: StepDescription | undefined, name: string): BlockDescription {
  const found = step?.blocks.find((block) => block.name === name);
  if (found === undefined) throw new Error(`step ${step?.path} has no block '${name}'`);
  return found;
}

/** Every step path of a list, nested blocks included, depth first. */
function paths(steps: readonly StepDescription[]): string[] {
  return steps.flatMap((step) => [step.path, ...step.blocks.flatMap((block) => paths(block.steps))]);
}

function mergeResource(original: { body: unknown }, resource: { body: unknown }) {
  original.body = { original: original.body, resource: resource.body };
  return original as never;
}

async function addEveryEip(): Promise<void> {
  await context.addRoutes((r) => {
    r.from("direct:resource")
      .routeId("resource")
      .setBody(() => "resource");
    r.from("direct:all")
      .routeId("all")
      .description("every core EIP")
      .onException(TypeError, { handled: true, maximumRedeliveries: 1, step: (s) => s.to("mock:typeError") })
      .errorHandler({ deadLetterUri: "mock:dead", maximumRedeliveries: 2, redeliveryDelay: 10 })
      .setHeader("kind", "${body.kind}")
      .choice((c) =>
        c.when("${header.kind} == 'a'", (s) => s.to("mock:a")).otherwise((s) => s.to("mock:other")),
      )
      .split("${body.items}", (s) => s.log("part ${body}"), { parallel: 2, aggregate: groupedBodies() })
      .multicast(["mock:m1", "mock:m2"], { stopOnError: true })
      .recipientList("${header.targets}")
      .wireTap("mock:tap")
      .enrich("direct:resource", mergeResource)
      .loop(3, (s) => s.process(function countIteration() {}))
      .delay(1)
      .throttle(10, { periodMs: 1000 })
      .circuitBreaker((s) => s.to("direct:resource"), {
        failureThreshold: 3,
        resetTimeout: 1000,
        fallback: (s) => s.setBody(() => "fallback"),
      })
      .doTry((s) => s.to("mock:try"), {
        catch: [[RangeError, (s) => s.to("mock:range")]],
        finally: (s) => s.to("mock:finally"),
      })
      .idempotentConsumer("${header.id}")
      .filter("${header.keep} == true")
      .aggregate("${header.group}", { strategy: groupedBodies(), completionSize: 2 })
      .to("mock:end");
  });
}

describe("context.describe()", () => {
  it("describes a route with every core EIP: steps, options, nested blocks, error handling", async () => {
    context = createContext({ name: "shop" });
    await addEveryEip();
    const description = context.describe();
    expect(description.name).toBe("shop");
    expect(description.state).toBe("created");
    const all = route("all");
    expect(all).toMatchObject({
      id: "all",
      from: "direct:all",
      description: "every core EIP",
      state: "stopped",
      autoStart: true,
    });
    expect(all.steps.map((step) => step.type)).toEqual([
      "setHeader",
      "choice",
      "split",
      "multicast",
      "recipientList",
      "wireTap",
      "enrich",
      "loop",
      "delay",
      "throttle",
      "circuitBreaker",
      "doTry",
      "idempotentConsumer",
    ]);
    const [
      setHeader,
      choice,
      split,
      multicast,
      recipientList,
      wireTap,
      enrich,
      loop,
      delay,
      throttle,
      breaker,
      doTry,
      idempotent,
    ] = all.steps;
    expect(setHeader).toMatchObject({
      label: "#1 setHeader(kind)",
      options: { name: "kind", expression: "${body.kind}" },
    });

    expect(choice?.blocks.map((block) => [block.name, block.path])).toEqual([
      ["when #1", "#2 choice when #1"],
      ["otherwise", "#2 choice otherwise"],
    ]);
    expect(blockNamed(choice, "when #1").options).toEqual({ predicate: "${header.kind} == 'a'" });
    expect(blockNamed(choice, "when #1").steps[0]).toMatchObject({
      type: "to",
      path: "#2 choice when #1 > #1 to(mock:a)",
      options: { uri: "mock:a" },
    });

    expect(split?.options).toEqual({
      expression: "${body.items}",
      parallel: 2,
      stopOnError: false,
      aggregate: { kind: "function", name: "(anonymous)" },
    });
    expect(blockNamed(split, "steps").steps[0]).toMatchObject({
      type: "log",
      path: "#3 split > #1 log",
      options: { message: "part ${body}", level: "info" },
    });
    expect(multicast?.options).toEqual({ uris: ["mock:m1", "mock:m2"], parallel: 1, stopOnError: true });
    expect(recipientList?.options).toMatchObject({
      expression: "${header.targets}",
      delimiter: ",",
      cacheSize: 1000,
    });
    expect(wireTap?.options).toEqual({ uri: "mock:tap" });
    expect(enrich?.options).toEqual({
      uri: "direct:resource",
      aggregate: { kind: "function", name: "mergeResource" },
    });
    expect(loop?.options).toEqual({ condition: 3, maxIterations: 10_000 });
    expect(blockNamed(loop, "steps").steps[0]?.options).toEqual({
      processor: { kind: "function", name: "countIteration" },
    });
    expect(delay?.options).toEqual({ delay: 1 });
    expect(throttle?.options).toEqual({
      mode: "rate",
      limit: 10,
      periodMs: 1000,
      rejectExecution: false,
      maxQueued: 1000,
    });
    expect(breaker?.options).toEqual({ failureThreshold: 3, resetTimeout: 1000 });
    expect(breaker?.blocks.map((block) => block.path)).toEqual([
      "#11 circuitBreaker",
      "#11 circuitBreaker fallback",
    ]);
    expect(doTry?.blocks.map((block) => [block.name, block.path])).toEqual([
      ["try", "#12 doTry try"],
      ["catch[0]", "#12 doTry catch[0]"],
      ["finally", "#12 doTry finally"],
    ]);
    expect(blockNamed(doTry, "catch[0]").options).toEqual({
      errors: [{ kind: "errorClass", name: "RangeError" }],
    });

    // Steps that take over the rest of their block hold it as a nested block, as the compiler runs it.
    expect(idempotent?.options).toEqual({ key: "${header.id}", skipDuplicate: true });
    const afterIdempotent = blockNamed(idempotent, "rest of block");
    expect(afterIdempotent.path).toBe("#13 idempotentConsumer");
    expect(paths(afterIdempotent.steps)).toEqual([
      "#13 idempotentConsumer > #1 filter",
      "#13 idempotentConsumer > #1 filter > #1 aggregate",
      "#13 idempotentConsumer > #1 filter > #1 aggregate > #1 to(mock:end)",
    ]);
    const aggregate = blockNamed(afterIdempotent.steps[0], "rest of block").steps[0];
    expect(aggregate?.options).toMatchObject({
      correlation: "${header.group}",
      completionSize: 2,
      strategy: { kind: "function", name: "(anonymous)" },
      recovery: { interval: 5000, maximumRedeliveries: 3 },
    });

    expect(all.errorHandling.errorHandler).toEqual({
      deadLetterUri: "mock:dead",
      maximumRedeliveries: 2,
      redeliveryDelay: 10,
    });
    expect(all.errorHandling.onException).toEqual([
      {
        path: "onException[route 0]",
        options: {
          errors: [{ kind: "errorClass", name: "TypeError" }],
          handled: true,
          maximumRedeliveries: 1,
        },
        steps: [
          {
            type: "to",
            label: "#1 to(mock:typeError)",
            path: "onException[route 0] > #1 to(mock:typeError)",
            options: { uri: "mock:typeError" },
            blocks: [],
          },
        ],
      },
    ]);
    expect(all.endpoints).toContainEqual({ uri: "direct:all", direction: "in", step: null, dynamic: false });
    expect(all.endpoints).toContainEqual({
      uri: "mock:m2",
      direction: "out",
      step: "#4 multicast",
      dynamic: false,
    });
    expect(all.endpoints).toContainEqual({
      uri: "mock:dead",
      direction: "out",
      step: "errorHandler",
      dynamic: false,
    });
    expect(all.endpoints).toContainEqual({
      uri: "mock:end",
      direction: "out",
      step: "#13 idempotentConsumer > #1 filter > #1 aggregate > #1 to(mock:end)",
      dynamic: false,
    });
  });

  it("gives nested steps the paths the compiler names them by in errors", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:nested")
        .routeId("nested")
        .choice((c) =>
          c
            .when("${body} == 'bad'", (w) =>
              w.loop(1, (l) =>
                l.filter("${body} != ''").process(() => {
                  throw new Error("bad part");
                }),
              ),
            )
            .otherwise((o) => o.to("mock:good")),
        );
    });
    await context.start();
    const failing = "#1 choice when #1 > #1 loop > #1 filter > #1 process";
    await expect(context.request("direct:nested", "good")).resolves.toBe("good");
    await expect(context.request("direct:nested", "bad")).rejects.toThrow(
      `Route 'nested' failed at step ${failing}: Error: bad part`,
    );
    expect(paths(route("nested").steps)).toEqual([
      "#1 choice",
      "#1 choice when #1 > #1 loop",
      "#1 choice when #1 > #1 loop > #1 filter",
      failing,
      "#1 choice otherwise > #1 to(mock:good)",
    ]);
  });

  it("lists the edges between routes: a step sending to an endpoint another route consumes", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:orders").routeId("orders").to("seda:billing").wireTap("direct:audit").to("mock:done");
      r.from("seda:billing?concurrentConsumers=2").routeId("billing").to("direct:audit");
      r.from("direct:audit").routeId("audit").to("mock:audit");
      r.from("direct:alone").routeId("alone").toD("direct:${header.next}");
    });
    expect(context.describe().edges).toEqual([
      { from: "orders", to: "billing", uri: "seda:billing", step: "#1 to(seda:billing)" },
      { from: "orders", to: "audit", uri: "direct:audit", step: "#2 wireTap" },
      { from: "billing", to: "audit", uri: "direct:audit", step: "#1 to(direct:audit)" },
    ]);
    expect(route("alone").endpoints).toContainEqual({
      uri: "direct:${header.next}",
      direction: "out",
      step: "#1 toD(direct:${header.next})",
      dynamic: true,
    });
  });

  it("moves the live counters as requests complete and fail", async () => {
    context = createContext();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.addRoutes((r) => {
      r.from("direct:count")
        .routeId("count")
        .process(async (exchange) => {
          if (exchange.body === "wait") await gate;
          if (exchange.body === "bad") throw new Error("refused");
        });
    });
    await context.start();
    expect(route("count").counters).toEqual({ inflight: 0, completed: 0, failed: 0 });
    await context.request("direct:count", "good");
    await context.request("direct:count", "good");
    await expect(context.request("direct:count", "bad")).rejects.toThrow("refused");
    const waiting = context.request("direct:count", "wait");
    expect(route("count").counters).toEqual({ inflight: 1, completed: 2, failed: 1 });
    release();
    await waiting;
    expect(route("count").counters).toEqual({ inflight: 0, completed: 3, failed: 1 });
    expect(route("count").state).toBe("started");
    expect(context.describe().state).toBe("started");
  });

  it("redacts credentials in endpoint URIs: options, step labels, user info", async () => {
    context = createContext();
    const stored: unknown[] = [];
    context.addComponent(
      defineComponent({
        scheme: "vault",
        options: { token: { type: "string" }, region: { type: "string" } },
        createEndpoint: (address) => ({
          uri: address.uri,
          send: (exchange) => {
            stored.push(exchange.body);
          },
        }),
      }),
    );
    await context.addRoutes((r) => {
      r.from("direct:secure")
        .routeId("secure")
        .to("vault:store?token=s3cr3t-value-9417&region=eu")
        .toD("vault:store?token=t0p-s3cret-2231&region=${header.region}")
        .wireTap("vault://admin:pa55word-7731@host/store");
    });
    await context.start();
    await context.request("direct:secure", "kept", { region: "eu" });
    await vi.waitFor(() => expect(stored).toEqual(["kept", "kept", "kept"]), { timeout: 10_000 });
    const secure = route("secure");
    const text = JSON.stringify(context.describe());
    for (const secret of ["s3cr3t-value-9417", "t0p-s3cret-2231", "pa55word-7731"])
      expect(text).not.toContain(secret);
    expect(secure.steps[0]).toMatchObject({
      label: "#1 to(vault:store?token=[redacted]&region=eu)",
      options: { uri: "vault:store?token=[redacted]&region=eu" },
    });
    expect(secure.steps[1]?.options.uri).toBe("vault:store?token=[redacted]&region=${header.region}");
    expect(secure.steps[2]?.options.uri).toBe("vault://admin:[redacted]@host/store");
  });

  it("survives an aspect whose description throws or is cyclic, and describes one without a describe as data", async () => {
    context = createContext();
    const cyclic: Record<string, unknown> = { level: 1n };
    cyclic.again = cyclic;
    context.use({
      name: "markers",
      aspects: {
        broken: {
          added: () => undefined,
          describe: () => {
            throw new Error("no description today");
          },
        },
        cyclic: { added: () => undefined, describe: () => cyclic },
        plain: { added: () => undefined },
      },
    });
    await context.addRoutes((r) => {
      r.from("direct:marked").routeId("marked").marked({ owner: "team-a" }).to("mock:marked");
    });
    const marked = route("marked");
    expect(marked.aspects).toEqual({
      broken: { error: "the 'broken' aspect could not be described: Error: no description today" },
      cyclic: { level: "1", again: "[circular]" },
      plain: { owner: "team-a" },
    });
    expect(marked.steps.map((step) => step.path)).toEqual(["#1 to(mock:marked)"]);
    expect(JSON.parse(JSON.stringify(context.describe()))).toEqual(context.describe());
  });

  it("always serialises: cycles, bigints, class instances and functions in options", async () => {
    context = createContext();
    class Settings {
      readonly limit = 10n;
    }
    const cyclic: Record<string, unknown> = { name: "loop", count: 2n, nan: Number.NaN };
    cyclic.self = cyclic;
    await context.addRoutes((r) => {
      r.from("direct:odd")
        .routeId("odd")
        .taggedWith(
          cyclic,
          new Settings(),
          () => 1,
          Symbol("mark"),
          Number.POSITIVE_INFINITY,
          new Date(0),
          /a+b/i,
        );
    });
    const description = context.describe();
    const parsed = JSON.parse(JSON.stringify(description)) as typeof description;
    expect(parsed).toEqual(description);
    expect(route("odd").steps[0]).toMatchObject({
      type: "custom",
      label: "#1 taggedWith",
      options: {
        name: "taggedWith",
        args: [
          { name: "loop", count: "2", nan: "NaN", self: "[circular]" },
          { kind: "object", name: "Settings" },
          { kind: "function", name: "(anonymous)" },
          "Symbol(mark)",
          "Infinity",
          "1970-01-01T00:00:00.000Z",
          "/a+b/i",
        ],
      },
    });
  });
});
