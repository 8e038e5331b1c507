import { afterEach, describe, expect, it, vi } from "vitest";

// Each page's example file runs its regions and returns what they did: replies, what reached the
// mock endpoints, what was printed, what a tool answered or refused. The test asserts that outcome,
// so a feature that stops working (or an example that stops running its regions) fails here.
afterEach(() => {
  vi.restoreAllMocks();
});

describe("docs examples run as the pages say", () => {
  it("llm-step: budgets, cost per route and tenant, and the provider quota", async () => {
    const printed = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const { main } = await import("../docs/llm-governance.js");
    const outcome = await main();
    const cost = (1900 * 0.15 + 60 * 0.6) / 1_000_000;
    expect(outcome.body).toBe("A-1 has shipped.");
    expect(outcome.stopReason).toBe("stop");
    expect(outcome.costUsd).toBeCloseTo(cost, 12);
    expect(printed.mock.calls).toEqual([["stop", outcome.costUsd]]);
    expect(outcome.tenant).toMatchObject({ runs: 1, inputTokens: 1900, outputTokens: 60 });
    expect(outcome.tenant?.costUsd).toBeCloseTo(cost, 12);
    expect(outcome.route).toEqual(outcome.tenant);
    expect(outcome.toolResults).toEqual([
      expect.objectContaining({
        name: "lookup",
        output: JSON.stringify({ order: "A-1", status: "shipped" }),
        isError: false,
      }),
    ]);
  });

  it("routes: the greeting route and a verb added with defineStep", async () => {
    const { main } = await import("../docs/routes.js");
    expect(await main()).toEqual({
      greetedAtImport: ["Hello, Ada!"],
      greeting: "Hello, Ada!",
      greeted: ["Hello, Ada!"],
      lengthHeader: 3,
      shout: "HEY!",
      ask: "WHY?",
    });
  });

  it("components: the mock endpoint's expectations", async () => {
    const { main } = await import("../docs/components.js");
    expect(await main()).toEqual(["HI", "YO"]);
  });

  it("error-handling: onException, redelivery and doTry", async () => {
    const { main } = await import("../docs/error-handling.js");
    expect(await main()).toEqual({
      invalidReply: "invalid: quantity must be a number",
      // The called route has no error handling of its own, so it is not redelivered; the orders
      // route's clause marks the stock error continued and the exchange is confirmed.
      stockAttempts: 1,
      confirmed: [{ quantity: 2 }],
      dead: [],
      goodCard: "charged",
      badCard: "declined: card 4000 declined",
      receipts: ["charged", "declined: card 4000 declined"],
      retryLater: [],
    });
  });
});

describe("docs examples of the EIP pages", () => {
  it("routing-eips: choice, split, recipient list, enrich, loop and delay", async () => {
    const { main } = await import("../docs/routing-eips.js");
    expect(await main()).toEqual({
      books: [{ kind: "book", total: 20 }],
      review: [{ kind: "car", total: 5000 }],
      done: [
        { kind: "book", total: 20 },
        { kind: "car", total: 5000 },
        { kind: "pen", total: 2 },
      ],
      lines: ["A", "B"],
      items: [1, 2, 3],
      recipients: { a: [{ targets: ["direct:a", "direct:b"] }], b: [{ targets: ["direct:a", "direct:b"] }] },
      enriched: "customer 7",
      priced: { sku: "a", price: 12 },
      drained: [],
      delayed: ["now"],
      dashboard: [10, 20],
    });
  });
});

describe("docs examples of the resilience page", () => {
  it("resilience-eips: throttle and the circuit breaker's fallback", async () => {
    const { main } = await import("../docs/resilience-eips.js");
    const outcome = await main();
    expect([...outcome.rendered].sort()).toEqual(["a", "b", "c"]);
    expect(outcome).toMatchObject({
      partner: ["call"],
      quote: "price unavailable: pricing is down",
      quoted: ["price unavailable: pricing is down"],
    });
  });
});

describe("docs examples of the expressions page", () => {
  it("expressions: simple-language text, predicates, functions and JSONPath", async () => {
    const { main } = await import("../docs/expressions.js");
    const outcome = await main();
    expect(outcome.books).toEqual([
      { summary: expect.stringMatching(/^Order \S+: 2 item\(s\)$/), discount: 0.1 },
    ]);
    expect(outcome.same).toEqual(["yes", "yes", "yes"]);
    expect(outcome.priced).toEqual({ reply: ["Dune", "Emma"], double: 300 });
    expect(outcome.helpers).toEqual({
      headers: { kind: "book", source: "catalogue", firstItem: "Dune", label: "book-2" },
      original: { items: ["Dune", "Emma"] },
    });
    expect(outcome.jsonpath).toEqual(["Dune", ["Emma", "Ulysses"], [], undefined]);
    expect(outcome.xpath).toBe("b1");
  });
});

describe("docs examples of the tool pages", () => {
  it("tools/math-eval: the engine, the tool route, the wrapper and the enrichment step", async () => {
    const { main } = await import("../docs/tools/math-eval.js");
    expect(await main()).toEqual({
      engine: ["14", '"1.9685039370079 inch"', "1", "-2", "null"],
      toolRoute: "14",
      wrapper: "1024",
      price: "36",
      total: 35,
    });
  });

  it("tools/regex-extract: the engine, the tool route and the wrapper", async () => {
    const { main } = await import("../docs/tools/regex-extract.js");
    expect(await main()).toEqual({
      engine: ['"123"', '["123","456"]', '["05","11"]', "null"],
      toolRoute: '"42"',
      wrapper: '"1"',
      countIds: [2, 0],
    });
  });

  it("tools/json-path and tools/xpath: the wrappers", async () => {
    expect(await (await import("../docs/tools/json-path.js")).main()).toEqual({
      wrapper: "2",
      firstItem: "A-1: 12",
    });
    expect(await (await import("../docs/tools/xpath.js")).main()).toBe("2");
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
    expect(await main()).toEqual({
      tools: ["total"],
      uri: "llm:openai?tools=total",
      pulled: "42",
      computed: "42",
    });
  });
});

describe("docs examples of the untrusted-input page", () => {
  it("untrusted-input: a budget for a tool, the dialect, and a custom tool's task in a worker", async () => {
    const { main } = await import("../docs/untrusted-input.js");
    const outcome = await main();
    expect(outcome.title).toBe("1");
    expect(outcome.rangeRefused).toMatch(
      /a range \(a to b\) at column 9 is not accepted from an untrusted source/,
    );
    expect(outcome.wordCount).toBe('{"word":"be","count":2}');
    expect(outcome.wordRefused).toMatch(/word_count: key 'word' must be 1 to 40 letters \(found "a\.\*"\)/);
  });
});

describe("docs examples of the architecture and concepts pages", () => {
  it("extending: a plugin with one of each addition, and a timing interceptor", async () => {
    const { main } = await import("../docs/extending.js");
    const outcome = await main();
    expect(outcome.lines).toEqual(["order received: book", "shelved book on top"]);
    expect(outcome.logged).toEqual([
      expect.stringMatching(/^orders #1 audit: \d+\.\d ms$/),
      expect.stringMatching(/^orders #2 to\(shelf:top\): \d+\.\d ms$/),
    ]);
    expect(outcome.otherContextHasOrders).toBe(false);
    expect(outcome.events).toEqual(["started", "stopped"]);
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
