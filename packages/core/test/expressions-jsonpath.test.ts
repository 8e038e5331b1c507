import { afterEach, describe, expect, it } from "vitest";
import { ExpressionError, RoutekitError } from "../src/errors/errors.js";
import { checkJsonPath, evaluateJsonPath, isMultiMatchPath } from "../src/expressions/index.js";

const store = {
  store: {
    book: [
      { title: "A", price: 5, tags: ["x"] },
      { title: "B", price: 15 },
      { title: "C", price: 25 },
    ],
    name: "shop",
  },
  matrix: [
    [1, 2],
    [3, 4],
  ],
};

describe("isMultiMatchPath", () => {
  it("recognises multi-match syntax", () => {
    for (const path of [
      "$..title",
      "$.store.book[*]",
      "$.store.*",
      "$.store.book[?(@.price > 10)]",
      "$.store.book[0:2]",
      "$.store.book[-1:]",
      "$.store.book[0,1]",
      "$['store']['name','other']",
      "$..*",
    ]) {
      expect(isMultiMatchPath(path), path).toBe(true);
    }
  });

  it("recognises definite paths", () => {
    for (const path of [
      "$",
      "$.store.name",
      "$.store.book[0].title",
      "$['store']['name']",
      "$['a,b']",
      "$['a:b']",
      "$.store.book[(@.length-1)]",
    ]) {
      expect(isMultiMatchPath(path), path).toBe(false);
    }
  });
});

describe("evaluateJsonPath", () => {
  it("returns the single value of a definite path, or undefined", () => {
    expect(evaluateJsonPath(store, "$.store.name")).toBe("shop");
    expect(evaluateJsonPath(store, "$.store.book[1].price")).toBe(15);
    expect(evaluateJsonPath(store, "$.matrix")).toEqual(store.matrix);
    expect(evaluateJsonPath(store, "$.matrix[1]")).toEqual([3, 4]);
    expect(evaluateJsonPath(store, "$")).toBe(store);
    expect(evaluateJsonPath(store, "$.missing")).toBeUndefined();
    expect(evaluateJsonPath(store, "$.store.book[7]")).toBeUndefined();
  });

  it("returns an array for multi-match paths, empty when nothing matched", () => {
    expect(evaluateJsonPath(store, "$..title")).toEqual(["A", "B", "C"]);
    expect(evaluateJsonPath(store, "$.store.book[*].price")).toEqual([5, 15, 25]);
    expect(evaluateJsonPath(store, "$.store.book[?(@.price > 10)].title")).toEqual(["B", "C"]);
    expect(evaluateJsonPath(store, "$.store.book[?(@.price > 10 && @.title != 'C')].title")).toEqual(["B"]);
    expect(evaluateJsonPath(store, "$.store.book[0:2].title")).toEqual(["A", "B"]);
    expect(evaluateJsonPath(store, "$.store.book[0,2].title")).toEqual(["A", "C"]);
    expect(evaluateJsonPath(store, "$.store.book[?(@.tags)].title")).toEqual(["A"]);
    expect(evaluateJsonPath(store, "$..nothing")).toEqual([]);
    expect(evaluateJsonPath(store, "$.store.book[?(@.price > 100)]")).toEqual([]);
  });

  it("parses JSON text and bytes first", () => {
    expect(evaluateJsonPath('{"a":{"b":[1,2]}}', "$.a.b[1]")).toBe(2);
    expect(evaluateJsonPath(new TextEncoder().encode('{"a":1}'), "$.a")).toBe(1);
    expect(evaluateJsonPath("[1,2,3]", "$[*]")).toEqual([1, 2, 3]);
    expect(evaluateJsonPath("null", "$")).toBeNull();
    expect(evaluateJsonPath("null", "$.a")).toBeUndefined();
    expect(evaluateJsonPath(undefined, "$..a")).toEqual([]);
  });

  it("adds a missing leading $", () => {
    expect(evaluateJsonPath(store, "store.name")).toBe("shop");
    expect(evaluateJsonPath(store, "..title")).toEqual(["A", "B", "C"]);
    expect(evaluateJsonPath(store, "['store']['name']")).toBe("shop");
    expect(evaluateJsonPath({ constructor: 1 }, "constructor")).toBe(1);
    expect(evaluateJsonPath({}, "__proto__")).toBeUndefined();
  });

  it("fails clearly on a document that is not JSON", () => {
    expect(() => evaluateJsonPath("{not json", "$.a")).toThrow(RoutekitError);
    expect(() => evaluateJsonPath("{not json", "$.a")).toThrow(
      /JSONPath "\$.a": the document is not valid JSON \(/,
    );
    expect(() => evaluateJsonPath(Symbol("s"), "$.a")).toThrow(/expected a JSON document, found/);
  });

  it("fails clearly on a malformed path, naming the column", () => {
    const cases: Array<[string, string]> = [
      ["$[", 'JSONPath "$[": unclosed "[": expected "]" at column 2'],
      ["$.a]", 'JSONPath "$.a]": unexpected "]" at column 4'],
      ["$.a[]", 'JSONPath "$.a[]": empty brackets at column 5'],
      ["$['a]", "unterminated string: expected a closing ' at column 3"],
      ["$.a[?(@.b > 1]", 'unclosed "(": expected ")" at column 15'],
      ["", "JSONPath must be a non-empty text, found string"],
    ];
    for (const [path, message] of cases) {
      expect(() => checkJsonPath(path), path).toThrow(ExpressionError);
      expect(() => evaluateJsonPath(store, path), path).toThrow(message);
    }
    expect(() => evaluateJsonPath(store, `$.${"a".repeat(5000)}`)).toThrow("the limit is 4096");
  });
});

describe("evaluateJsonPath refuses code execution (CVE-2024-21534, CVE-2025-1302)", () => {
  const marker = globalThis as { routekitJsonPathMarker?: unknown };

  afterEach(() => {
    delete marker.routekitJsonPathMarker;
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  const payloads = [
    "$[?(@.constructor.constructor('globalThis.routekitJsonPathMarker = 1')())]",
    "$..[?(@.constructor.constructor('globalThis.routekitJsonPathMarker = 2')())]",
    "$..book[?(@.title.constructor.constructor('globalThis.routekitJsonPathMarker = 3')())]",
    "$[?(@ && @.constructor && @.constructor.constructor('globalThis.routekitJsonPathMarker = 4')())]",
    "$..[?(@.__proto__.polluted = 1)]",
    "$..[?(@.__proto__ && (@.__proto__.polluted = 'yes'))]",
    "$[?(@property.constructor.constructor('globalThis.routekitJsonPathMarker = 5')())]",
    "$[(@.constructor.constructor('globalThis.routekitJsonPathMarker = 6')())]",
    "$..[?(this.constructor.constructor('globalThis.routekitJsonPathMarker = 7')())]",
    "$[?(@root.constructor.constructor('globalThis.routekitJsonPathMarker = 8')())]",
  ];

  for (const payload of payloads) {
    it(`does not execute ${payload}`, () => {
      let outcome: unknown;
      try {
        outcome = evaluateJsonPath(store, payload);
      } catch (error) {
        expect(error).toBeInstanceOf(RoutekitError);
        expect((error as RoutekitError).message).toContain(`JSONPath "${payload}" failed: jsonPath:`);
        outcome = "refused";
      }
      expect(marker.routekitJsonPathMarker).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(
        outcome === "refused" || (Array.isArray(outcome) && outcome.length === 0) || outcome === undefined,
      ).toBe(true);
    });
  }
});
