import { afterAll, describe, expect, it } from "vitest";
import { ToolInputError } from "../src/errors.js";
import { regexExtract, shutdownRegexWorkers } from "../src/regex-extract/index.js";

afterAll(() => shutdownRegexWorkers());

async function extract(
  text: string,
  pattern: string,
  group?: string | number,
  all?: boolean,
): Promise<unknown> {
  return JSON.parse(await regexExtract({ text, pattern, group, all }));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("regex_extract output", () => {
  it("returns the first match as a JSON string", async () => {
    expect(await regexExtract({ text: "Order 123 and 456", pattern: "\\d+" })).toBe('"123"');
  });

  it("returns every match as a JSON array when all is true", async () => {
    expect(await regexExtract({ text: "Order 123 and 456", pattern: "\\d+", all: true })).toBe(
      '["123","456"]',
    );
  });

  it("returns the literal text null when nothing matches, for one match and for all", async () => {
    expect(await regexExtract({ text: "no digits", pattern: "\\d+" })).toBe("null");
    expect(await regexExtract({ text: "no digits", pattern: "\\d+", all: true })).toBe("null");
  });

  it("writes quotes, backslashes and newlines as valid JSON", async () => {
    const text = 'say "hi"\\\nnow';
    expect(await extract(text, "say[\\s\\S]*")).toBe(text);
  });

  it("caps all:true at 64 values by default and at maxMatches when set", async () => {
    const text = Array.from({ length: 100 }, (_, index) => `n${index}`).join(" ");
    const values = (await extract(text, "n\\d+", 0, true)) as string[];
    expect(values).toHaveLength(64);
    expect(values[63]).toBe("n63");
    const three = await regexExtract({ text, pattern: "n\\d+", all: true }, { maxMatches: 3 });
    expect(JSON.parse(three)).toEqual(["n0", "n1", "n2"]);
  });

  it("returns empty matches like String.prototype.matchAll does", async () => {
    expect(await extract("ab", "x*", 0, true)).toEqual(["", "", ""]);
  });
});

describe("regex_extract groups", () => {
  const dates = "from 2024-05 to 2025-11";
  const datePattern = "(?<year>\\d{4})-(?<month>\\d{2})";

  it("selects a numbered group given as a number or as a numeric string", async () => {
    expect(await extract(dates, datePattern, 2)).toBe("05");
    expect(await extract(dates, datePattern, "1", true)).toEqual(["2024", "2025"]);
  });

  it("selects the whole match for group 0, '0', '' and an omitted group", async () => {
    for (const group of [0, "0", "", undefined]) {
      expect(await extract(dates, datePattern, group)).toBe("2024-05");
    }
  });

  it("selects a named group in (?<name>) and (?P<name>) syntax", async () => {
    expect(await extract(dates, datePattern, "month", true)).toEqual(["05", "11"]);
    expect(await extract(dates, "(?P<year>\\d{4})", "year")).toBe("2024");
  });

  it("skips matches in which the selected group did not take part", async () => {
    const text = "a=1 b= c=3";
    expect(await extract(text, "(\\w)=(\\d)?", 2)).toBe("1");
    expect(await extract(text, "(\\w)=(\\d)?", 2, true)).toEqual(["1", "3"]);
    expect(await extract("b=", "(\\w)=(\\d)?", 2)).toBeNull();
  });

  it("refuses a group name the pattern does not have, naming it and listing the known ones", async () => {
    const error = await rejection(regexExtract({ text: dates, pattern: datePattern, group: "day" }));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error).toMatchObject({ key: "group", toolName: "regex_extract", code: "TOOL_INPUT_INVALID" });
    expect((error as Error).message).toBe(
      "regex_extract: key 'group' names capture group 'day', which the pattern does not have (named groups: year, month)",
    );
  });

  it("refuses a group number beyond the pattern's groups", async () => {
    const error = await rejection(regexExtract({ text: dates, pattern: datePattern, group: 3 }));
    expect((error as Error).message).toBe(
      "regex_extract: key 'group' is 3, but the pattern has only 2 capture group(s)",
    );
  });

  it("refuses negative, fractional and non-string, non-number groups", async () => {
    for (const group of [-1, 1.5, true, { name: "x" }]) {
      const input = { text: "x", pattern: "(x)", group } as unknown as Parameters<typeof regexExtract>[0];
      const error = await rejection(regexExtract(input));
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toMatch(/^regex_extract: key 'group' must be/);
    }
  });

  it("counts groups of patterns only the JavaScript engine runs (backreferences)", async () => {
    expect(await extract("say hello hello", "(?<word>\\w+) \\k<word>", "word")).toBe("hello");
    const error = await rejection(regexExtract({ text: "x", pattern: "(a)(?:b)(?=c)\\1", group: 2 }));
    expect((error as Error).message).toContain("the pattern has only 1 capture group(s)");
  });
});

describe("regex_extract pattern dialect", () => {
  it("runs backreferences and lookahead, which RE2 does not support", async () => {
    expect(await extract("hello hello world", "(\\w+) \\1", 1)).toBe("hello");
    expect(await extract("100USD 200EUR", "\\d+(?=EUR)")).toBe("200");
    expect(await extract("100USD 200EUR", "\\d+(?!\\d|EUR)")).toBe("100");
  });

  it("runs lookbehind", async () => {
    expect(await extract("cost $42 or €7", "(?<=\\$)\\d+")).toBe("42");
    expect(await extract("cost $42 or €7", "(?<!\\$)\\b\\d+", 0, true)).toEqual(["7"]);
  });

  it("accepts leading inline flags on both engines", async () => {
    expect(await extract("Hello HELLO", "(?i)hello", 0, true)).toEqual(["Hello", "HELLO"]);
    expect(await extract("Abc abc", "(?i)(abc) \\1")).toBe("Abc abc");
    expect(await extract("a\nb", "(?s)a.b")).toBe("a\nb");
    expect(await extract("x\ny", "(?m)^y$")).toBe("y");
  });

  it("accepts RE2-only syntax on patterns RE2 runs", async () => {
    expect(await extract("aaa", "(?U)a+")).toBe("a");
    expect(await extract("ab12", "[[:alpha:]]+")).toBe("ab");
    expect(await extract("ab", "(?i:A)b")).toBe("ab");
  });

  it("accepts JavaScript escapes and Unicode classes", async () => {
    expect(await extract("ABC", "\\u0042")).toBe("B");
    expect(await extract("smile 😀", "\\u{1F600}")).toBe("😀");
    expect(await extract("Grüße 123", "\\p{L}+")).toBe("Grüße");
  });

  it("refuses an invalid pattern, naming the tool, the key and both engines' reasons", async () => {
    const error = await rejection(regexExtract({ text: "x", pattern: "(" }));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error).toMatchObject({ key: "pattern", code: "TOOL_INPUT_INVALID" });
    expect((error as Error).message).toMatch(
      /^regex_extract: key 'pattern' is not a valid regular expression: /,
    );
    expect((error as Error).message).toContain("Unterminated group");
    expect((error as Error).message).toContain("RE2 engine: ");
  });

  it("refuses inline flags the JavaScript engine lacks on patterns only it can run", async () => {
    const error = await rejection(regexExtract({ text: "aa", pattern: "(?U)(a)\\1" }));
    expect((error as Error).message).toContain("a leading inline flag group may only use i, m and s here");
  });

  it("refuses inline flags in the middle of a pattern only JavaScript can run", async () => {
    const error = await rejection(regexExtract({ text: "aa", pattern: "(a)(?i)\\1" }));
    expect(error).toMatchObject({ key: "pattern" });
  });
});

describe("regex_extract engines agree", () => {
  // Long texts move re2js work to a worker; the answers must not change.
  const padding = "-".repeat(300_000);
  const cases: [string, string, string | number, boolean][] = [
    ["id=42; id=7; ", "id=(\\d+)", 1, true],
    ["From: Ann <ann@example.org>", "<(?<mail>[^>]+)>", "mail", false],
    ["a=1 b= c=3", "(\\w)=(\\d)?", 2, true],
    ["nothing here", "\\d", 0, true],
  ];

  it.each(cases)("%s with %s", async (text, pattern, group, all) => {
    const short = await regexExtract({ text, pattern, group, all });
    const long = await regexExtract({ text: text + padding, pattern, group, all });
    expect(long).toBe(short);
  });
});
