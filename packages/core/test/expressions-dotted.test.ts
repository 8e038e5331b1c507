import { describe, expect, it } from "vitest";
import { compileExpression } from "../src/expressions/index.js";

const exchange = (headers: Record<string, unknown>, properties: Record<string, unknown> = {}) => ({
  id: "x",
  body: undefined,
  headers,
  properties,
});

describe("dotted header and property names", () => {
  it("reads the longest dotted prefix that is a header name", () => {
    const evaluate = compileExpression("${header.http.method}");
    expect(evaluate(exchange({ "http.method": "POST" }))).toBe("POST");
    expect(evaluate(exchange({ http: { method: "GET" } }))).toBe("GET");
    expect(evaluate(exchange({ "http.method": "POST", http: { method: "GET" } }))).toBe("POST");
    expect(evaluate(exchange({}))).toBeUndefined();
  });

  it("walks into the value after the name", () => {
    expect(
      compileExpression("${header.llm.tool.args.city}")(exchange({ "llm.tool.args": { city: "Oslo" } })),
    ).toBe("Oslo");
    expect(compileExpression("${property.a.b}")(exchange({}, { "a.b": 3 }))).toBe(3);
  });

  it("never reads inherited names", () => {
    expect(compileExpression("${header.toString.name}")(exchange({}))).toBeUndefined();
  });
});
