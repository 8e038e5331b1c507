import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { LlmToolsError, ToolInputError } from "../src/index.js";

// A parsed document in the body of a `.jsonPath({ path })` step: a small one is measured by an
// upper bound of its JSON size and queried as it is; whatever the bound cannot vouch for is
// measured exactly. These pin what the user sees either way: JSON's own view of the document.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

async function stepFor(options: Record<string, unknown>): Promise<RouteContext> {
  const started = createContext();
  await started.addRoutes((r) => {
    r.from("direct:query").routeId("query").jsonPath(options);
  });
  await started.start();
  context = started;
  return started;
}

async function failureOf(started: RouteContext, body: unknown): Promise<Error> {
  const exchange = await started.requestExchange("direct:query", { body });
  expect(exchange.error).toBeInstanceOf(Error);
  return exchange.error!;
}

describe(".jsonPath({ path }) over an object document", () => {
  it("queries nested objects and arrays of every JSON kind as JSON would write them", async () => {
    const started = await stepFor({ path: "$.rows[?(@.ok == true)]" });
    const document = {
      rows: [
        { id: 1, ok: true, tags: ["a", "b"], note: null, nested: { deep: [1.5, -2e-300] } },
        { id: 2, ok: false, tags: [], note: "x\u0001y", nested: {} },
        { id: 3, ok: true, tags: [[["z"]]], note: "é✓", nested: { deep: [] } },
      ],
    };
    expect(await started.request("direct:query", document)).toBe(
      JSON.stringify([document.rows[0], document.rows[2]]),
    );
  });

  it("leaves out what JSON leaves out: undefined values, functions, and keys an object does not own", async () => {
    const started = await stepFor({ path: "$" });
    const inherited = Object.create({ fromPrototype: "not written" }) as Record<string, unknown>;
    inherited.own = 1;
    const document = { kept: 1, gone: undefined, call: () => 1, inner: inherited };
    expect(await started.request("direct:query", document)).toBe('{"kept":1,"inner":{"own":1}}');
  });

  it("writes values with toJSON, such as a Date, as JSON does", async () => {
    const started = await stepFor({ path: "$.when" });
    const when = new Date(Date.UTC(2024, 4, 1, 12));
    expect(await started.request("direct:query", { when })).toBe('"2024-05-01T12:00:00.000Z"');
    await started.stop();
    const replacing = await stepFor({ path: "$.replaced" });
    expect(await replacing.request("direct:query", { toJSON: () => ({ replaced: true }) })).toBe("true");
  });

  it("refuses a document over maxDocumentBytes by its exact UTF-8 size, however it is spelled", async () => {
    // Each "é" is 2 bytes of UTF-8: the document's JSON text is 2 × 600 + 11 bytes.
    const document = { text: "é".repeat(600) };
    const bytes = Buffer.byteLength(JSON.stringify(document));
    const refusing = await stepFor({ path: "$.text", maxDocumentBytes: bytes - 1 });
    const error = await failureOf(refusing, document);
    expect(error).toBeInstanceOf(LlmToolsError);
    expect((error as LlmToolsError).code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(error.message).toBe(
      `json_path: key 'json' is ${bytes} bytes; the limit is ${bytes - 1} (option 'maxDocumentBytes')`,
    );
    await refusing.stop();
    const accepting = await stepFor({ path: "$.text", maxDocumentBytes: bytes });
    expect(await accepting.request("direct:query", document)).toBe(JSON.stringify(document.text));
  });

  it("queries a document larger than inlineDocumentChars in the budget, with the same answer", async () => {
    const document = { items: Array.from({ length: 400 }, (_, index) => ({ index, name: `item ${index}` })) };
    const inline = await stepFor({ path: "$.items[?(@.index > 397)].name" });
    const expected = await inline.request("direct:query", document);
    expect(expected).toBe('["item 398","item 399"]');
    await inline.stop();
    const budgeted = await stepFor({ path: "$.items[?(@.index > 397)].name", inlineDocumentChars: 100 });
    expect(await budgeted.request("direct:query", document)).toBe(expected);
  });

  it("fails a cyclic document with an input error naming the key, and the process goes on", async () => {
    const started = await stepFor({ path: "$.a" });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const error = await failureOf(started, cyclic);
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toMatch(/^json_path: key 'json' cannot be read as JSON \(/);
    expect(await started.request("direct:query", { a: 2 })).toBe("2");
  });
});
