import { describe, expect, it } from "vitest";

// Each page's example file runs its regions and checks, with node:assert, what the page says they do;
// where main() returns what it observed, the test asserts that outcome too (a main() that stopped
// checking, or stopped running its regions, fails here).
describe("docs examples run as the pages say", () => {
  it("llm-step: budgets, cost per route and tenant, and the provider quota", async () => {
    const { main } = await import("../docs/llm-governance.js");
    await main();
  });

  it("routes: the greeting route and a verb added with defineStep", async () => {
    const { main } = await import("../docs/routes.js");
    await main();
  });

  it("components: the mock endpoint's expectations", async () => {
    const { main } = await import("../docs/components.js");
    expect(await main()).toEqual(["HI", "YO"]);
  });

  it("error-handling: onException, redelivery and doTry", async () => {
    const { main } = await import("../docs/error-handling.js");
    await main();
  });
});

describe("docs examples of the EIP pages", () => {
  it("routing-eips: choice, split, recipient list, enrich, loop and delay", async () => {
    const { main } = await import("../docs/routing-eips.js");
    await main();
  });
});

describe("docs examples of the resilience page", () => {
  it("resilience-eips: throttle and the circuit breaker's fallback", async () => {
    const { main } = await import("../docs/resilience-eips.js");
    await main();
  });
});

describe("docs examples of the expressions page", () => {
  it("expressions: simple-language text, predicates, functions and JSONPath", async () => {
    const { main } = await import("../docs/expressions.js");
    await main();
  });
});

describe("docs examples of the tool pages", () => {
  it("tools/math-eval: the engine, the tool route, the wrapper and the enrichment step", async () => {
    const { main } = await import("../docs/tools/math-eval.js");
    await main();
  });

  it("tools/regex-extract: the engine, the tool route and the wrapper", async () => {
    const { main } = await import("../docs/tools/regex-extract.js");
    await main();
  });

  it("tools/json-path and tools/xpath: the wrappers", async () => {
    await (await import("../docs/tools/json-path.js")).main();
    await (await import("../docs/tools/xpath.js")).main();
  });
});

describe("docs examples of the README", () => {
  it("README: the orders route", async () => {
    const { main } = await import("../docs/readme.js");
    expect(main()).toEqual({ books: [{ kind: "book" }], done: [{ kind: "book" }] });
  });
});

describe("docs examples of the installing page", () => {
  it("installing: importing a package adds its steps and context.tools", async () => {
    const { main } = await import("../docs/installing.js");
    await main();
  });
});

describe("docs examples of the untrusted-input page", () => {
  it("untrusted-input: a budget for a tool, the dialect, and a custom tool's task in a worker", async () => {
    const { main } = await import("../docs/untrusted-input.js");
    await main();
  });
});

describe("docs examples of the architecture and concepts pages", () => {
  it("extending: a plugin with one of each addition, and a timing interceptor", async () => {
    const { main } = await import("../docs/extending.js");
    await main();
  });
});

describe("docs examples of the llm step page", () => {
  it("llm-step: from(observable$) feeds a model, context.observe watches the answers", async () => {
    const { main } = await import("../docs/llm-step.js");
    expect(await main()).toEqual(["Hello!"]);
  });
});

describe("docs examples of the observability page", () => {
  it("observability: a processor's send to seda: arrives (traced with the otel plugin)", async () => {
    const { main } = await import("../docs/observability.js");
    expect(await main()).toEqual(["order 1"]);
  });
});
