import { createContext, xpath } from "@routekit/core";
import { checkXmlShape } from "@routekit/core/internal";
import { scaledMs } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { watchEventLoop } from "../support/event-loop-watch.js";

const nested = (depth: number) => `${"<a>".repeat(depth)}x${"</a>".repeat(depth)}`;
const contexts: ReturnType<typeof createContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.stop()));
});

describe("attack: hostile XML bodies under a route author's XPath (inline)", () => {
  it("count(//a) over 8,000 nested elements is refused before parsing, in milliseconds", async () => {
    const context = createContext();
    contexts.push(context);
    await context.addRoutes((routes) => {
      // Inline bounds raised past the document: the parser's own shape check is what refuses it.
      routes
        .from("direct:count")
        .routeId("count-route")
        .setBody(xpath("count(//a)", { maxDocumentChars: 1_000_000, maxDepth: 100_000 }));
    });
    await context.start();
    const watch = watchEventLoop();
    const error = await context.request("direct:count", nested(8000)).catch((failure: unknown) => failure);
    const report = watch.stop();
    expect((error as Error).message).toMatch(
      /Route 'count-route' failed at step .*XML document refused: elements are nested more than 512 deep \(at line 1\)/,
    );
    expect(report.elapsedMs).toBeLessThan(scaledMs(1000));
    expect(report.longestGapMs).toBeLessThan(scaledMs(750));
    expect(await context.request("direct:count", nested(100))).toBe("100");
  });

  it("40,000 attributes in one element are refused before parsing", () => {
    const attributes = Array.from({ length: 40_000 }, (_, index) => `a${index}="${index}"`).join(" ");
    const startedAt = performance.now();
    expect(() => checkXmlShape(`<r ${attributes}/>`)).toThrow(/an element has more than 1000 attributes/);
    expect(performance.now() - startedAt).toBeLessThan(scaledMs(1000));
  });

  it.each([
    ["a comment holding tags", "<r><!-- <a><a><a> --><b/></r>"],
    ["a CDATA section holding tags", "<r><![CDATA[<a><a><a>]]></r>"],
    ["a quoted > and = in attribute values", '<r a="x>y" b="p=q"><c d="1"/></r>'],
    ["a processing instruction", '<?xml version="1.0"?><?style x="1"?><r/>'],
  ])("counts only real elements and attributes: %s", (_label, text) => {
    expect(() => checkXmlShape(text)).not.toThrow();
  });

  it("the limits are exact: 512 levels and 1000 attributes pass, one more does not", () => {
    expect(() => checkXmlShape(nested(512))).not.toThrow();
    expect(() => checkXmlShape(nested(513))).toThrow(/nested more than 512 deep/);
    const attributes = (count: number) =>
      `<r ${Array.from({ length: count }, (_, index) => `a${index}="1"`).join(" ")}/>`;
    expect(() => checkXmlShape(attributes(1000))).not.toThrow();
    expect(() => checkXmlShape(attributes(1001))).toThrow(/more than 1000 attributes/);
  });
});
