// validateToolArguments checks a copy of the arguments, never the caller's object: small JSON data
// is copied by routekit itself, anything else by structuredClone.
import { describe, expect, it } from "vitest";
import { type Tool, toTool, validateToolArguments } from "../src/tool-contract.js";

const open: Tool = toTool({
  name: "open",
  inputSchema: { type: "object", properties: { a: {}, nested: { type: "object" } } },
  execute: () => "",
});
const closed: Tool = toTool({
  name: "closed",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" } },
    required: ["a"],
    additionalProperties: false,
  },
  execute: () => "",
});

function validated(tool: Tool, args: unknown): Record<string, unknown> {
  const result = validateToolArguments(tool, args);
  if (!result.ok) throw new Error(result.message);
  return result.value as Record<string, unknown>;
}

describe("validateToolArguments copies what it checks", () => {
  it("returns a deep copy: changing it leaves the caller's arguments alone", () => {
    const args = { a: [1, { b: "x" }], nested: { deep: { deeper: [null, true, 2.5] } } };
    const before = JSON.stringify(args);
    const value = validated(open, args);
    expect(value).toEqual(args);
    expect(value).not.toBe(args);
    expect(value.nested).not.toBe(args.nested);
    (value.nested as { deep: { deeper: unknown[] } }).deep.deeper.push("more");
    expect(JSON.stringify(args)).toBe(before);
  });

  it("drops undeclared arguments from the copy only", () => {
    const args = { a: 1, extra: "kept by the caller" };
    expect(validated(closed, args)).toEqual({ a: 1 });
    expect(args).toEqual({ a: 1, extra: "kept by the caller" });
  });

  it("keeps a parsed '__proto__' key as data, never as the copy's prototype", () => {
    const args = JSON.parse('{"a": 1, "__proto__": {"isAdmin": true}}') as Record<string, unknown>;
    const value = validated(open, args);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
  });

  it("copies only own properties of an object with another prototype", () => {
    const args = Object.assign(Object.create({ isAdmin: true }) as Record<string, unknown>, { a: 1 });
    const value = validated(open, args);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(value).toEqual({ a: 1 });
  });

  it("copies dates and cycles as structuredClone does", () => {
    const when = new Date(0);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const value = validated(open, { a: when, nested: { cyclic } });
    expect(value.a).toBeInstanceOf(Date);
    expect(value.a).not.toBe(when);
    const nested = value.nested as { cyclic: Record<string, unknown> };
    expect(nested.cyclic.self).toBe(nested.cyclic);
    expect(nested.cyclic).not.toBe(cyclic);
  });

  it("copies a part that two places share to each of them", () => {
    const shared = { n: 1 };
    const nested = validated(open, { nested: { left: shared, right: shared } }).nested as {
      left: unknown;
      right: unknown;
    };
    expect(nested.left).toEqual(shared);
    expect(nested.right).toEqual(shared);
    expect(nested.left).not.toBe(shared);
  });

  it("copies a value too wide for its own budget, in full", () => {
    const wide = { a: Array.from({ length: 20_000 }, (_, index) => index) };
    expect((validated(open, wide).a as number[]).length).toBe(20_000);
  });

  it("copies arguments nested deeper than its own limit, in full", () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 100; level++) deep = { next: deep };
    let value = validated(open, { nested: deep }).nested as Record<string, unknown>;
    for (let level = 0; level < 100; level++) value = value.next as Record<string, unknown>;
    expect(value).toEqual({ leaf: true });
  });
});
