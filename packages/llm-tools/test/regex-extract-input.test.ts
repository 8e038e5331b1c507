import { afterAll, describe, expect, it } from "vitest";
import { ToolInputError } from "../src/errors.js";
import {
  REGEX_EXTRACT_INPUT_SCHEMA,
  runRegexExtract,
  shutdownRegexWorkers,
} from "../src/regex-extract/index.js";

afterAll(() => shutdownRegexWorkers());

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("runRegexExtract tool form", () => {
  const input = { text: "id=42, id=7", pattern: "id=(\\d+)", group: 1, all: true };

  it("reads an input object, its JSON text and its UTF-8 bytes", async () => {
    expect(await runRegexExtract(input)).toBe('["42","7"]');
    expect(await runRegexExtract(JSON.stringify(input))).toBe('["42","7"]');
    expect(await runRegexExtract(new TextEncoder().encode(JSON.stringify(input)))).toBe('["42","7"]');
  });

  it("accepts all as a boolean string and group as a numeric string", async () => {
    expect(await runRegexExtract({ ...input, group: "1", all: "true" })).toBe('["42","7"]');
    expect(await runRegexExtract({ ...input, all: "false" })).toBe('"42"');
  });

  it.each([
    [undefined, "regex_extract: input is empty (expected a JSON object)", undefined],
    ["  ", "regex_extract: input is empty (expected a JSON object)", undefined],
    ["{nope", "regex_extract: input is not valid JSON (", undefined],
    ["[1]", "regex_extract: input is not a JSON object (found an array)", undefined],
    [{ pattern: "a" }, "regex_extract: required key 'text' is missing", "text"],
    [{ text: 5, pattern: "a" }, "regex_extract: key 'text' must be a string (found number 5)", "text"],
    [{ text: "a" }, "regex_extract: required key 'pattern' is missing", "pattern"],
    [
      { text: "a", pattern: "a", all: 1 },
      "regex_extract: key 'all' must be a boolean (found number 1)",
      "all",
    ],
  ])("refuses %o with a clear error", async (body, message, key) => {
    const error = await rejection(runRegexExtract(body));
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toContain(message);
    expect((error as ToolInputError).key).toBe(key);
  });
});

describe("runRegexExtract enrichment form", () => {
  it("reads a string body as the text when the options fix the pattern", async () => {
    expect(await runRegexExtract("mail ann@example.org now", { pattern: "\\w+@[\\w.]+" })).toBe(
      '"ann@example.org"',
    );
  });

  it("keeps a JSON-looking string body as text", async () => {
    expect(await runRegexExtract('{"text":"x","id":17}', { pattern: '"id":(\\d+)', group: 1 })).toBe('"17"');
  });

  it("reads UTF-8 bytes as the text", async () => {
    expect(await runRegexExtract(new TextEncoder().encode("Grüße"), { pattern: "\\p{L}+" })).toBe('"Grüße"');
  });

  it("lets options fix group and all, and ignores those keys in the body", async () => {
    const options = { pattern: "(?<word>\\w+)=(\\d+)", group: "word", all: true };
    expect(await runRegexExtract("a=1 b=2", options)).toBe('["a","b"]');
    const body = { text: "a=1 b=2", pattern: "nothing", group: 2, all: false };
    expect(await runRegexExtract(body, options)).toBe('["a","b"]');
  });

  it("refuses a body that is neither text nor an input object", async () => {
    const error = await rejection(runRegexExtract(42, { pattern: "\\d" }));
    expect((error as Error).message).toBe(
      "regex_extract: expected the text (a string) or an input object with key 'text' (found number 42)",
    );
  });

  it("checks the fixed pattern like an input pattern", async () => {
    const error = await rejection(runRegexExtract("text", { pattern: "[" }));
    expect(error).toMatchObject({ key: "pattern", code: "TOOL_INPUT_INVALID" });
  });
});

describe("REGEX_EXTRACT_INPUT_SCHEMA", () => {
  it("describes the seed's contract with text and pattern required", () => {
    expect(REGEX_EXTRACT_INPUT_SCHEMA.type).toBe("object");
    expect(Object.keys(REGEX_EXTRACT_INPUT_SCHEMA.properties)).toEqual(["text", "pattern", "group", "all"]);
    expect(REGEX_EXTRACT_INPUT_SCHEMA.required).toEqual(["text", "pattern"]);
  });
});
