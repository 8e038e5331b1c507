import "@routekit/llm-tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attack, createAttackBed, expectContained, settle } from "./support/attack-harness.js";

const bed = createAttackBed();
const ask = (json: unknown, path: string) => bed.context.request("direct:json-path", { json, path });

/** A document nested `depth` levels deep, each level with a small array beside. */
function nestedDocument(depth: number): unknown {
  let document: unknown = 1;
  for (let level = 0; level < depth; level++) document = { a: document, b: [level, level + 1] };
  return document;
}

beforeAll(async () => {
  await bed.context.addRoutes((routes) => {
    routes
      .from("direct:json-path")
      .routeId("json-path-attacks")
      .jsonPath({ budget: bed.budget, timeoutMs: 1000 });
    routes
      .from("direct:json-path-small")
      .jsonPath({ budget: bed.budget, timeoutMs: 1000, maxDocumentBytes: 1000, maxOutputBytes: 2000 });
    routes.from("direct:json-path-fixed").jsonPath({ path: "$.a", maxDocumentBytes: 1000 });
    routes
      .from("direct:json-path-fixed-descent")
      .jsonPath({ path: "$..*", budget: bed.budget, timeoutMs: 1000, maxOutputBytes: 100_000 });
  });
  await bed.context.start();
  expect(await ask({ a: [1, 2] }, "$.a[1]")).toBe("2");
});
afterAll(() => bed.close());
beforeEach(() => settle(bed.budget));

describe("attack: json_path from a model", () => {
  it("refuses $..*..*..* (three recursive descents) at once, naming the limit", async () => {
    const json = JSON.stringify(nestedDocument(60));
    expect(json.length).toBeGreaterThan(1000);
    const report = await attack(() => ask(json, "$..*..*..*"));
    expectContained(report, 500, /more than 2 recursive descents \(\.\.\) at column 8/);
  });

  it("bounds $..*..* over a 4 KB nested document (time, memory or output, whichever comes first)", async () => {
    const report = await attack(() => ask(JSON.stringify(nestedDocument(220)), "$..*..*"));
    expectContained(report, 6000, /timeoutMs \(1000 ms\)|maxOutputBytes|maxMemoryMb/);
  });

  it("refuses a regex literal in a filter, $[?(@.s.match(/^(a+)+$/))], over a 31-character string", async () => {
    const report = await attack(() => ask([{ s: `${"a".repeat(30)}!` }], "$[?(@.s.match(/^(a+)+$/))]"));
    expectContained(report, 500, /key 'path' is invalid: .*a function or method call \(match\(\)/);
  });

  it.each([
    [
      "a string repeat bomb",
      "$[?(@.s.repeat(100000000).length > 1)]",
      /a function or method call \(repeat\(\)/,
    ],
    [
      "a constructor escape",
      "$[?(@.constructor.constructor('return process')())]",
      /a function or method call/,
    ],
    ["a regex match operator", "$[?(@.s =~ /a+/)]", /a regex match operator/],
    ["division (or a regex literal)", "$[?(@.n / 0 > 1)]", /a regular expression literal or division/],
    ["an assignment", "$[?(@.n = 1)]", /an assignment/],
  ])("refuses %s in a filter", async (_label, path, message) => {
    const report = await attack(() => ask([{ s: "a", n: 1 }], path));
    expectContained(report, 500, message);
  });

  it("applies maxDocumentBytes to a document passed as an object", async () => {
    const report = await attack(() =>
      bed.context.request("direct:json-path-small", { json: { big: "x".repeat(2000) }, path: "$.big" }),
    );
    expectContained(report, 500, /key 'json' is 2010 bytes; the limit is 1000 \(option 'maxDocumentBytes'\)/);
  });

  it("applies maxDocumentBytes to an object body under a fixed path too", async () => {
    const report = await attack(() => bed.context.request("direct:json-path-fixed", { a: "y".repeat(5000) }));
    expectContained(report, 500, /the limit is 1000 \(option 'maxDocumentBytes'\)/);
  });

  it("a fixed $..* (the route author's) over a large hostile document runs in the budget, not inline", async () => {
    const document = nestedDocument(2000);
    const report = await attack(() => bed.context.request("direct:json-path-fixed-descent", document));
    expectContained(report, 6000, /timeoutMs \(1000 ms\)|more than maxOutputBytes \(100000\)|maxMemoryMb/);
    expect(await bed.context.request("direct:json-path-fixed-descent", { a: [1] })).toBe("[[1],1]");
  });

  it("refuses a cyclic object under a fixed path too (the fast size bound gives way to JSON.stringify)", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const report = await attack(() => bed.context.request("direct:json-path-fixed", cyclic));
    expectContained(report, 500, /key 'json' cannot be read as JSON \(.*circular/i);
  });

  it("refuses a cyclic object with a clear error", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const report = await attack(() => ask(cyclic, "$.a"));
    expectContained(report, 500, /key 'json' cannot be read as JSON \(.*circular/i);
  });

  it("caps the output: $..* over a document whose matches outgrow maxOutputBytes", async () => {
    const items = Array.from({ length: 28 }, (_, index) => ({ index, text: "w".repeat(10) }));
    expect(JSON.stringify({ items }).length).toBeLessThan(1000);
    const report = await attack(() =>
      bed.context.request("direct:json-path-small", { json: { items }, path: "$..*" }),
    );
    expectContained(report, 3000, /more than maxOutputBytes \(2000\)/);
  });

  it("survives 100,000 levels of nesting with a clear error", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const report = await attack(() => ask(deep, "$..*"));
    expectContained(report, 6000, /json_path: /);
  });

  it("keeps answering ordinary queries after every attack", async () => {
    expect(await ask('{"items":[{"p":5},{"p":15}]}', "$.items[?(@.p > 10)].p")).toBe("[15]");
    expect(bed.budget.stats().queued).toBe(0);
  });
});
