import { createContext, defineServiceKey, type RouteContext, RoutekitError } from "@routekit/core";
import { describe, expect, it } from "vitest";

// Typed service keys: a key made once names a per-context value, created by the key on first use
// in each context; the key, not its name, is the identity.

describe("context.service with a typed key", () => {
  it("creates the service once per context, with that context", () => {
    const made: RouteContext[] = [];
    const counters = defineServiceKey("test.counters", (context) => {
      made.push(context);
      return { count: 0 };
    });
    const first = createContext();
    const second = createContext();
    first.service(counters).count++;
    first.service(counters).count++;
    second.service(counters).count++;
    expect(first.service(counters).count).toBe(2);
    expect(second.service(counters).count).toBe(1);
    expect(made).toEqual([first, second]);
  });

  it("keeps two keys of the same name apart, and apart from the string form", () => {
    const context = createContext();
    const one = defineServiceKey("test.same", () => ["one"]);
    const other = defineServiceKey("test.same", () => ["other"]);
    expect(context.service(one)).toEqual(["one"]);
    expect(context.service(other)).toEqual(["other"]);
    expect(context.service("test.same", () => ["string"])).toEqual(["string"]);
  });

  it("refuses a key without a name or without create, saying what it found", () => {
    expect(() => defineServiceKey("", () => 1)).toThrow(
      'defineServiceKey(name, create): name must be a non-empty string (found string "")',
    );
    expect(() => defineServiceKey("test.x", 5 as never)).toThrow(
      "defineServiceKey('test.x', create): create must be a function (context) => service (found number 5)",
    );
    const context = createContext();
    const error = (() => {
      try {
        context.service("test.missing", undefined as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RoutekitError);
    expect((error as RoutekitError).code).toBe("PLUGIN_INVALID");
    expect((error as Error).message).toContain(
      "context.service('test.missing', create): a string key needs create",
    );
  });
});
