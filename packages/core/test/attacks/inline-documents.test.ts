import { createContext, jsonpath, xpath } from "@routekit/core";
import { scaledMs } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { watchEventLoop } from "../support/event-loop-watch.js";

const nested = (depth: number) => `${"<a>".repeat(depth)}x${"</a>".repeat(depth)}`;
const contexts: ReturnType<typeof createContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.stop()));
});

async function started(define: Parameters<ReturnType<typeof createContext>["addRoutes"]>[0]) {
  const context = createContext();
  contexts.push(context);
  await context.addRoutes(define);
  await context.start();
  return context;
}

/** Sends a body and reports the error and what the event loop saw. */
async function attack(context: ReturnType<typeof createContext>, uri: string, body: unknown) {
  const watch = watchEventLoop();
  const outcome = await context.request(uri, body).catch((error: unknown) => error);
  return { outcome, ...watch.stop() };
}

describe("attack: hostile bodies under a route author's xpath()/jpath() in the simple language", () => {
  it("300 KB of nested XML fails at once, naming the route, the step, the size, the limit and the option", async () => {
    const context = await started((routes) => {
      routes.from("direct:xml").routeId("xml-route").setBody("${xpath('count(//a)')}");
    });
    // Inline, this document takes seconds: 80 chains of 500 nested elements.
    const report = await attack(context, "direct:xml", `<r>${nested(500).repeat(80)}</r>`);
    expect((report.outcome as Error).message).toMatch(
      /Route 'xml-route' failed at step .*XPath "count\(\/\/a\)": the document has 280\d+ characters, more than the 16384 \(maxDocumentChars\) queried on the route's thread \(option of the xpath\(\) helper/,
    );
    expect(report.longestGapMs).toBeLessThan(scaledMs(500));
    expect(await context.request("direct:xml", `<r>${nested(20)}</r>`)).toBe("20");
  });

  it("16 KB of XML nested 500 deep (a second inline) is refused by the nesting bound", async () => {
    const context = await started((routes) => {
      routes.from("direct:deep").routeId("deep-route").setBody("${xpath('count(//a)')}");
    });
    const report = await attack(context, "direct:deep", `<r>${nested(500).repeat(4)}</r>`);
    expect((report.outcome as Error).message).toMatch(
      /Route 'deep-route' failed at step .*nested more than 64 \(maxDepth\) levels deep/,
    );
    expect(report.longestGapMs).toBeLessThan(scaledMs(500));
  });

  it("JSON text nested 5,000 deep and a large parsed body are refused before jpath runs", async () => {
    const context = await started((routes) => {
      routes.from("direct:json").routeId("json-route").setBody("${jpath('$..*')}");
    });
    const deep = await attack(context, "direct:json", `${"[".repeat(5000)}1${"]".repeat(5000)}`);
    expect((deep.outcome as Error).message).toMatch(
      /Route 'json-route' failed at step .*JSONPath "\$\.\.\*": the document is nested more than 64 \(maxDepth\)/,
    );
    const large = { items: Array.from({ length: 200_000 }, (_, index) => ({ id: index })) };
    const wide = await attack(context, "direct:json", large);
    expect((wide.outcome as Error).message).toMatch(
      /more than 16384 characters of JSON, more than the 16384/,
    );
    expect(wide.longestGapMs).toBeLessThan(scaledMs(500));
    const parsedDeep = JSON.parse(`${'{"a":'.repeat(100)}1${"}".repeat(100)}`) as unknown;
    expect(((await attack(context, "direct:json", parsedDeep)).outcome as Error).message).toMatch(
      /nested more than 64 \(maxDepth\)/,
    );
    expect(await context.request("direct:json", { a: [1, 2] })).toEqual([[1, 2], 1, 2]);
  });

  it("the helpers take the limits as an option, checked when the route is built", async () => {
    const context = await started((routes) => {
      routes.from("direct:big").setBody(xpath("count(//a)", { maxDocumentChars: 100_000 }));
      routes.from("direct:small").setBody(jsonpath("$.a", { maxDocumentChars: 10 }));
    });
    expect(await context.request("direct:big", `<r>${"<a/>".repeat(2000)}</r>`)).toBe("2000");
    await expect(context.request("direct:small", '{"a": "0123456789"}')).rejects.toThrow(
      /the document has 19 characters, more than the 10 \(maxDocumentChars\)/,
    );
    expect(() => xpath("//a", { maxDepth: 0 })).toThrow(
      /xpath\("\/\/a"\): option 'maxDepth' must be a positive integer \(found number 0\)/,
    );
  });
});
