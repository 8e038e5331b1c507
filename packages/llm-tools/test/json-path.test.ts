import { describe, expect, it } from "vitest";
import { JSON_PATH_INPUT_SCHEMA, LlmToolsError, runJsonPath, ToolInputError } from "../src/index.js";
import { resolveJsonPathOptions } from "../src/json-path/index.js";
import { toolErrorThrownBy } from "./support/failures.js";

const store = {
  store: {
    book: [
      { category: "reference", author: "Rees", title: "Sayings", price: 8.95 },
      { category: "fiction", author: "Waugh", title: "Sword", price: 12.99 },
      { category: "fiction", author: "Tolkien", title: "Rings", price: 22.99, isbn: "0-395" },
    ],
    bicycle: { color: "red", price: 19.95 },
  },
  empty: [],
};
const storeText = JSON.stringify(store);

describe("json_path contract", () => {
  it("returns a single match as compact JSON text", () => {
    expect(runJsonPath({ json: storeText, path: "$.store.book[0].title" })).toBe('"Sayings"');
    expect(runJsonPath({ json: storeText, path: "$.store.bicycle" })).toBe('{"color":"red","price":19.95}');
    expect(runJsonPath({ json: storeText, path: "$.store.book[2].price" })).toBe("22.99");
    expect(runJsonPath({ json: storeText, path: "$.empty" })).toBe("[]");
  });

  it("returns an array for every multi-match syntax", () => {
    expect(runJsonPath({ json: storeText, path: "$..author" })).toBe('["Rees","Waugh","Tolkien"]');
    expect(runJsonPath({ json: storeText, path: "$.store.book[*].price" })).toBe("[8.95,12.99,22.99]");
    expect(runJsonPath({ json: storeText, path: "$.store.book[?(@.price > 10)].title" })).toBe(
      '["Sword","Rings"]',
    );
    expect(runJsonPath({ json: storeText, path: "$.store.book[1:3].author" })).toBe('["Waugh","Tolkien"]');
    expect(runJsonPath({ json: storeText, path: "$.store.book[0,2].title" })).toBe('["Sayings","Rings"]');
    expect(runJsonPath({ json: storeText, path: "$.store.book[?(@.isbn)].title" })).toBe('["Rings"]');
    // one match of a multi-match path is still an array
    expect(runJsonPath({ json: storeText, path: "$..isbn" })).toBe('["0-395"]');
  });

  it("returns null when nothing matches, for single and multi-match paths", () => {
    expect(runJsonPath({ json: storeText, path: "$.store.car" })).toBe("null");
    expect(runJsonPath({ json: storeText, path: "$.store.book[7]" })).toBe("null");
    expect(runJsonPath({ json: storeText, path: "$..nothing" })).toBe("null");
    expect(runJsonPath({ json: storeText, path: "$.store.book[?(@.price > 100)]" })).toBe("null");
  });

  it("defaults the path to $ and accepts the document as an object or as JSON text", () => {
    expect(runJsonPath({ json: '{"a": [1, 2]}' })).toBe('{"a":[1,2]}');
    expect(runJsonPath({ json: store, path: "$.store.bicycle.color" })).toBe('"red"');
    expect(runJsonPath({ json: [10, 20], path: "$[1]" })).toBe("20");
    expect(runJsonPath(JSON.stringify({ json: storeText, path: "store.bicycle.color" }))).toBe('"red"');
    expect(runJsonPath(new TextEncoder().encode(JSON.stringify({ json: "[1]", path: "$[0]" })))).toBe("1");
  });

  it("with a fixed path reads the document itself from the body (enrichment form)", () => {
    const options = { path: "$.store.book[0].author" };
    expect(runJsonPath(store, options)).toBe('"Rees"');
    expect(runJsonPath(storeText, options)).toBe('"Rees"');
    // an object with a `json` key is a document like any other here
    expect(runJsonPath({ json: "x" }, { path: "$.json" })).toBe('"x"');
  });

  it("publishes a schema whose required key is json", () => {
    expect(JSON_PATH_INPUT_SCHEMA.type).toBe("object");
    expect(JSON_PATH_INPUT_SCHEMA.required).toEqual(["json"]);
  });
});

describe("json_path bad input", () => {
  const cases: Array<[string, unknown, string, string | undefined]> = [
    ["empty", "", "json_path: input is empty (expected a JSON object)", undefined],
    ["undefined", undefined, "json_path: input is empty (expected a JSON object)", undefined],
    ["not JSON", "{json:", "json_path: input is not valid JSON", undefined],
    ["not an object", "[1,2]", "json_path: input is not a JSON object (found an array)", undefined],
    ["a number", 42, "json_path: input is not a JSON object (found number 42)", undefined],
    ["json missing", { path: "$" }, "json_path: required key 'json' is missing", "json"],
    [
      "json of the wrong type",
      { json: 5 },
      "json_path: key 'json' must be JSON text, an object or an array",
      "json",
    ],
    ["json not JSON", { json: "{a:1}" }, "json_path: key 'json' is not valid JSON", "json"],
    ["json empty", { json: "  " }, "json_path: key 'json' is empty", "json"],
    [
      "path of the wrong type",
      { json: "{}", path: 3 },
      "json_path: key 'path' must be a string (found number 3)",
      "path",
    ],
    ["path empty", { json: "{}", path: "" }, "json_path: key 'path' is invalid", "path"],
    ["path unbalanced", { json: "{}", path: "$.a[0" }, "json_path: key 'path' is invalid", "path"],
  ];
  it.each(cases)("%s", (_name, body, message, key) => {
    const error = toolErrorThrownBy(() => runJsonPath(body));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toContain(message);
    expect((error as ToolInputError).key).toBe(key);
    expect(error.toolName).toBe("json_path");
  });

  it("an empty body with a fixed path names the json key", () => {
    const error = toolErrorThrownBy(() => runJsonPath(undefined, { path: "$" }));
    expect(error.message).toBe("json_path: input is empty (expected a JSON document)");
    expect(toolErrorThrownBy(() => runJsonPath("nope", { path: "$" })).message).toContain(
      "key 'json' is not valid JSON",
    );
  });

  it("refuses a document over maxDocumentBytes, naming the key and the option", () => {
    const big = JSON.stringify({ text: "é".repeat(600) });
    const error = toolErrorThrownBy(() => runJsonPath({ json: big }, { maxDocumentBytes: 1000 }));
    expect(error.code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(error.message).toBe(
      `json_path: key 'json' is ${Buffer.byteLength(big)} bytes; the limit is 1000 (option 'maxDocumentBytes')`,
    );
    expect(runJsonPath({ json: big, path: "$.text.length" }, { maxDocumentBytes: 2000 })).toBe("600");
    const defaultLimit = JSON.stringify({ text: "x".repeat(1024 * 1024) });
    expect(toolErrorThrownBy(() => runJsonPath({ json: defaultLimit })).message).toContain(
      "the limit is 1048576",
    );
  });

  it("refuses bad options when they are resolved", () => {
    expect(() => resolveJsonPathOptions({ path: "$[" })).toThrow("json_path: option 'path' is invalid");
    expect(() => resolveJsonPathOptions({ path: "" })).toThrow(
      "json_path: option 'path' must be a non-empty",
    );
    expect(() => resolveJsonPathOptions({ maxDocumentBytes: 0 })).toThrow(
      "json_path: option 'maxDocumentBytes' must be a whole number >= 1 (found number 0)",
    );
    expect(() => resolveJsonPathOptions({ pth: "$" } as never)).toThrow(
      "json_path: unknown option 'pth' (did you mean 'path'?) (expected one of path, maxDocumentBytes, timeoutMs, maxOutputBytes, inlineDocumentChars, budget)",
    );
  });
});

describe("json_path attacks: filter code never runs natively", () => {
  const payloads = [
    "$[?(@.constructor.constructor('return process')().exit(7))]",
    "$..[?(@.constructor.constructor('globalThis.pwned = 1')())]",
    "$[?(this.constructor.constructor('globalThis.pwned = 1')())]",
    "$[?(globalThis.pwned = 1)]",
    "$[?(@ && (function(){ globalThis.pwned = 1 })())]",
    "$[?(@.__proto__.polluted = 1)]",
  ];
  it.each(payloads)("%s", (path) => {
    const document = JSON.stringify({ a: { b: 1 }, c: [1, 2] });
    let outcome: string;
    try {
      outcome = runJsonPath({ json: document, path });
    } catch (error) {
      expect(error).toBeInstanceOf(LlmToolsError);
      outcome = "refused";
    }
    expect(["null", "refused"]).toContain(outcome);
    expect(Reflect.get(globalThis, "pwned")).toBeUndefined();
    expect(Reflect.get(Object.prototype, "polluted")).toBeUndefined();
  });
});
