import { describe, expect, it } from "vitest";
import { createContext, definePropertyKey } from "../src/index.js";
import { decodeStoredExchange, encodeStoredExchange, isTransientProperty } from "../src/internal.js";

describe("definePropertyKey", () => {
  it("reads and writes its property, typed", async () => {
    const attempts = definePropertyKey<number>({ name: "test.keys.attempts" });
    const context = createContext({ logLevel: "off" });
    const exchange = context.createExchange({ body: "x" });
    attempts.set(exchange, 3);
    expect(exchange.properties["test.keys.attempts"]).toBe(3);
    expect(attempts.get(exchange)).toBe(3);
    expect(attempts.transient).toBe(false);
    expect(isTransientProperty("test.keys.attempts")).toBe(false);
  });

  it("leaves a transient property out of a stored exchange, however its value is made", () => {
    definePropertyKey<object>({ name: "test.keys.handle", transient: true });
    const handle: Record<string, unknown> = { open: true };
    handle.self = handle;
    const text = encodeStoredExchange({
      body: "b",
      headers: {},
      properties: { "test.keys.handle": handle, kept: 1 },
    });
    expect(decodeStoredExchange(text).properties).toEqual({ kept: 1 });
    expect(isTransientProperty("test.keys.handle")).toBe(true);
  });

  it("refuses a name defined both transient and not, and a bad name", () => {
    definePropertyKey({ name: "test.keys.both", transient: true });
    expect(definePropertyKey({ name: "test.keys.both", transient: true }).transient).toBe(true);
    expect(() => definePropertyKey({ name: "test.keys.both" })).toThrow(
      "definePropertyKey('test.keys.both'): the property is already defined with transient: true; one name cannot be both stored and transient",
    );
    expect(() => definePropertyKey({ name: "" })).toThrow(
      'definePropertyKey() expects { name: a non-empty string, transient?: boolean } (found name string "")',
    );
  });
});
