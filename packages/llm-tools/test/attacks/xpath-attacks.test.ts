import "@routekit/llm-tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attack, createAttackBed, expectContained, settle } from "./support/attack-harness.js";

const bed = createAttackBed();
const ask = (xml: string, xpath: string) => bed.context.request("direct:xpath", { xml, xpath });

beforeAll(async () => {
  await bed.context.addRoutes((routes) => {
    routes.from("direct:xpath").routeId("xpath-attacks").xpath({ budget: bed.budget, timeoutMs: 1000 });
    routes.from("direct:xpath-fixed").xpath({ xpath: "count(//a)" });
    // Full XPath 3.1 is the route author's to use; a quadratic query over a large body is bounded.
    routes
      .from("direct:xpath-fixed-costly")
      .xpath({ xpath: "count(//a[. = //a]) idiv count(//a)", budget: bed.budget, timeoutMs: 1000 });
    routes
      .from("direct:xpath-small-output")
      .xpath({ budget: bed.budget, timeoutMs: 1000, maxOutputBytes: 1000 });
  });
  await bed.context.start();
  // Warm the budget: the first job of a worker loads fontoxpath.
  expect(await ask("<r><a>1</a></r>", "string(//a)")).toBe("1");
});
afterAll(() => bed.close());
beforeEach(() => settle(bed.budget));

const nested = (depth: number) => `${"<a>".repeat(depth)}x${"</a>".repeat(depth)}`;

describe("attack: xpath from a model", () => {
  it("refuses the exponential recursive inline function at once, naming it", async () => {
    const report = await attack(() =>
      ask(
        "<r/>",
        "let $f := function($f,$n){ if ($n = 0) then 1 else $f($f,$n - 1) + $f($f,$n - 1) } return $f($f, 24)",
      ),
    );
    expectContained(report, 500, /key 'xpath' is refused: .*an inline function \(function\(\.\.\.\)\)/);
  });

  it("refuses count(for $i in 1 to 100000000 return $i), naming the for expression", async () => {
    const report = await attack(() => ask("<r/>", "count(for $i in 1 to 100000000 return $i)"));
    expectContained(report, 500, /a for expression/);
  });

  it("refuses a bare range, count(1 to 100000000)", async () => {
    const report = await attack(() => ask("<r/>", "count(1 to 100000000)"));
    expectContained(report, 500, /a range \(a to b\)/);
  });

  it("refuses count(//a) over 8,000 nested elements before parsing (nesting limit)", async () => {
    const report = await attack(() => ask(nested(8000), "count(//a)"));
    expectContained(report, 6000, /key 'xml': XML document refused: elements are nested more than 512 deep/);
  });

  it("answers count(//a) over 500 nested elements (under the limit) quickly", async () => {
    expect(await ask(nested(500), "count(//a)")).toBe("500");
  });

  it("refuses 40,000 attributes in one element before parsing", async () => {
    const attributes = Array.from({ length: 40_000 }, (_, index) => `a${index}="${index}"`).join(" ");
    const report = await attack(() => ask(`<r ${attributes}/>`, "count(//@*)"));
    expectContained(report, 6000, /XML document refused: an element has more than 1000 attributes/);
  });

  it("stops a quadratic query, count(//a[. = //a]) over 20,000 siblings, at timeoutMs", async () => {
    const siblings = `<r>${"<a>1</a>".repeat(20_000)}</r>`;
    const report = await attack(() => ask(siblings, "count(//a[. = //a])"));
    expectContained(report, 6000, /xpath: the query ran longer than timeoutMs \(1000 ms\) and was stopped/);
  });

  it("a fixed expression (the route author's) over a large hostile document runs in the budget, not inline", async () => {
    const siblings = `<r>${"<a>1</a>".repeat(20_000)}</r>`;
    const report = await attack(() => bed.context.request("direct:xpath-fixed-costly", siblings));
    expectContained(report, 6000, /xpath: the query ran longer than timeoutMs \(1000 ms\) and was stopped/);
    expect(await bed.context.request("direct:xpath-fixed-costly", "<r><a>1</a><a>2</a></r>")).toBe("1");
  });

  it("a fixed expression (the route author's) over a hostile nested document is refused, not run", async () => {
    const report = await attack(() => bed.context.request("direct:xpath-fixed", nested(8000)));
    expectContained(report, 6000, /XML document refused: elements are nested more than 512 deep/);
  });

  it("refuses a billion-laughs document (DOCTYPE) with a clear error", async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><r>&lol2;</r>';
    const report = await attack(() => ask(laughs, "string(/r)"));
    expectContained(report, 1500, /<!DOCTYPE> declaration at line 1, column 22; DTDs are not accepted/);
  });

  it("refuses an external entity (DOCTYPE after a comment) with a clear error", async () => {
    const external = '<!-- hi --><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    const report = await attack(() => ask(external, "string(/r)"));
    expectContained(report, 1500, /DTDs are not accepted/);
  });

  it("an undeclared entity is a parse error, not a lookup", async () => {
    const report = await attack(() => ask("<r>&secret;</r>", "string(/r)"));
    expectContained(report, 1500, /key 'xml': XML document is not well-formed/);
  });

  it("caps the output: string(/) over 100 KB of text with maxOutputBytes 1000", async () => {
    const report = await attack(() =>
      bed.context.request("direct:xpath-small-output", {
        xml: `<r>${"z".repeat(100_000)}</r>`,
        xpath: "string(/)",
      }),
    );
    expectContained(report, 6000, /more than maxOutputBytes \(1000\)/);
  });

  it.each([
    ["matches() with a catastrophic regex", "matches(//a, '^(a+)+$')", /the function matches\(\)/],
    ["tokenize()", "count(tokenize(string(//a), 'a*'))", /the function tokenize\(\)/],
    ["string-join over a sequence", "string-join(//a, ',')", /the function string-join\(\)/],
    ["a map constructor", "map { 'a': 1 }", /a map or array constructor/],
    ["the arrow operator", "//a => count()", /the arrow operator/],
    ["a simple map", "//a ! string(.)", /the simple map operator/],
    ["a quantified expression", "some $x in //a satisfies $x = 1", /a quantified expression/],
  ])("refuses %s", async (_label, xpath, message) => {
    const report = await attack(() => ask("<r><a>aaaa</a></r>", xpath));
    expectContained(report, 500, message);
  });

  it("keeps answering ordinary queries after every attack (the process and the pool recover)", async () => {
    expect(await ask("<r><a>1</a><a>2</a></r>", "count(//a)")).toBe("2");
    expect(bed.budget.stats().queued).toBe(0);
  });
});
