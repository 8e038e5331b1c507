// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are simple-language expressions, not JavaScript templates
import { describe, expect, it } from "vitest";
import { ExpressionError, RoutekitError } from "../src/errors/errors.js";
import {
  compileExpression,
  compilePredicate,
  type ExpressionExchange,
  header,
  simple,
} from "../src/expressions/index.js";

function exchangeOf(fields: Partial<ExpressionExchange> = {}): ExpressionExchange {
  return { id: "exchange-1", body: undefined, headers: {}, properties: {}, ...fields };
}

function syntaxErrorOf(compile: () => unknown): ExpressionError {
  try {
    compile();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error("expected an ExpressionError");
}

function evaluationErrorOf(run: () => unknown): RoutekitError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RoutekitError);
    expect(error).not.toBeInstanceOf(ExpressionError);
    return error as RoutekitError;
  }
  throw new Error("expected a RoutekitError");
}

describe("syntax errors name the expression and the column", () => {
  const cases: Array<[text: string, message: string, column: number]> = [
    ["${header.a ==}", 'Expression "${header.a ==}": expected a value at column 14, found "}"', 14],
    ["hello ${header.a", 'Expression "hello ${header.a": unclosed "${": expected "}" at column 7', 7],
    ["${}", 'Expression "${}": expected a value at column 3, found "}"', 3],
    ["${1 +}", "expected a value at column 6", 6],
    ["${header.a header.b}", 'expected an operator or "}" at column 12, found "header"', 12],
    ["${(1 + 2}", 'expected an operator or ")" at column 9, found "}"', 9],
    ["${foo(1)}", 'unknown function "foo" (known: upper, lower,', 3],
    ["${bogus}", 'unknown name "bogus" (expected body, header.NAME', 3],
    ["${'abc}", "unterminated string: expected a closing ' at column 3", 3],
    ['${"abc}', 'unterminated string: expected a closing " at column 3', 3],
    ["${'a\\qb'}", "bad escape in string (use", 5],
    ["${'\\u12'}", "bad \\u escape in string: expected four hex digits at column 4", 4],
    ["${header.a = 'x'}", 'unexpected character (use "==" to compare) at column 12', 12],
    ["${a & b}", 'unexpected character (use "&&" or AND)', 5],
    ["${1 # 2}", 'unexpected character at column 5, found "#"', 5],
    ["${12abc}", "a number must not run into a name at column 3", 3],
    ["${substring('x')}", "function substring() expects 2 to 3 argument(s), got 1 at column 3", 3],
    ["${uuid(1)}", "function uuid() expects 0 argument(s), got 1", 3],
    ["${upper('a' 'b')}", 'expected "," or ")" in the arguments of upper() at column 13', 13],
    ["${header.kind IN ('a' 'b')}", 'expected "," or ")" in the IN list at column 23', 23],
    ["${header.kind regex header.pattern}", "regex expects a string literal pattern at column 21", 21],
    ["${header.kind regex '('}", "invalid regex pattern", 21],
    ["${true ? 1}", 'expected ":" of the "?:" operator at column 11', 11],
    ["${body.}", 'expected a name after "." at column 8', 8],
    ["${body.items[0}", 'expected "]" at column 15', 15],
    ["${header.a(1)}", "only functions can be called", 11],
    ["${body.items.nope()}", 'unknown function "nope"', 14],
    ["${1 2}", "expected an operator", 5],
    [
      "${jpath('$.a[')}",
      'invalid argument of jpath() (JSONPath "$.a[": unclosed "[": expected "]" at column 4)',
      9,
    ],
    ["${xpath('//a[')}", 'invalid argument of xpath() (XPath "//a[": syntax error at column 4', 9],
  ];

  for (const [text, message, column] of cases) {
    it(`rejects ${text}`, () => {
      const error = syntaxErrorOf(() => compileExpression(text));
      expect(error.message).toContain(message);
      expect(error.message).toContain(`Expression "${text}"`);
      expect(error.column).toBe(column);
      expect(error.expression).toBe(text);
      expect(error.code).toBe("EXPRESSION_INVALID");
    });
  }

  it("rejects malformed predicates and bare expressions", () => {
    expect(syntaxErrorOf(() => compilePredicate("header.a ==")).message).toBe(
      'Expression "header.a ==": expected a value at column 12, found the end of the expression',
    );
    expect(syntaxErrorOf(() => compilePredicate("yes")).message).toContain('unknown name "yes"');
    expect(syntaxErrorOf(() => compilePredicate("Hello ${body}")).message).toContain('unknown name "Hello"');
    expect(syntaxErrorOf(() => compilePredicate("${header.a} == 'x' }")).message).toContain(
      'expected an operator or the end of the expression at column 20, found "}"',
    );
    expect(syntaxErrorOf(() => simple("1 +")).column).toBe(4);
  });

  it("rejects a regex pattern longer than the limit", () => {
    const text = `\${header.a regex '${"a".repeat(1001)}'}`;
    expect(syntaxErrorOf(() => compileExpression(text)).message).toContain("longer than 1000 characters");
  });

  it("rejects what is neither text nor a function", () => {
    expect(syntaxErrorOf(() => compileExpression(42 as unknown as string)).message).toContain(
      "must be a text or a function of the exchange, found number 42",
    );
    expect(syntaxErrorOf(() => compilePredicate(null as unknown as string)).message).toContain("found null");
    expect(syntaxErrorOf(() => header("")).message).toContain("header() needs a header name");
  });
});

describe("prototype keys are not reachable", () => {
  it("refuses __proto__, constructor and prototype written in the expression", () => {
    for (const text of [
      "${body.__proto__}",
      "${body.constructor}",
      "${body['constructor']}",
      "${body.items.prototype}",
      "${header.__proto__}",
      "${body.constructor.constructor('return process')()}",
    ]) {
      expect(syntaxErrorOf(() => compileExpression(text)).message).toMatch(
        /access to "(__proto__|constructor|prototype)" is not allowed/,
      );
    }
  });

  it("yields undefined when a key computed at run time is a prototype key", () => {
    const compiled = compileExpression("${body[header.key]}");
    for (const key of ["__proto__", "constructor", "prototype"]) {
      expect(compiled(exchangeOf({ body: { a: 1 }, headers: { key } }))).toBeUndefined();
    }
    const polluted = compileExpression("${body[header.key].polluted}");
    expect(polluted(exchangeOf({ body: {}, headers: { key: "__proto__" } }))).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("evaluation errors are RoutekitError EXPRESSION_FAILED naming the expression", () => {
  it("reports arithmetic on values that are not numbers", () => {
    const error = evaluationErrorOf(() =>
      compileExpression("${header.a * 2}")(exchangeOf({ headers: { a: "abc" } })),
    );
    expect(error.code).toBe("EXPRESSION_FAILED");
    expect(error.message).toBe(
      'Expression "${header.a * 2}" failed: operator "*" expects numbers, found string "abc" (at column 12)',
    );
    expect(error.cause).toBeInstanceOf(RoutekitError);
    const missing = evaluationErrorOf(() => compileExpression("${header.none - 1}")(exchangeOf()));
    expect(missing.message).toContain('operator "-" expects numbers, found undefined');
  });

  it("reports comparisons between values that cannot be ordered", () => {
    const error = evaluationErrorOf(() => compilePredicate("${body} > 3")(exchangeOf({ body: { a: 1 } })));
    expect(error.message).toBe(
      'Expression "${body} > 3" failed: operator ">" cannot compare an object with number 3 (at column 9)',
    );
  });

  it("reports function arguments of the wrong kind", () => {
    const exchange = exchangeOf({ headers: { a: "abc" } });
    expect(evaluationErrorOf(() => compileExpression("${number(header.a)}")(exchange)).message).toContain(
      'number() cannot convert string "abc" to a number',
    );
    expect(evaluationErrorOf(() => compileExpression("${abs(header.a)}")(exchange)).message).toContain(
      'abs() expects a number, found string "abc"',
    );
    expect(
      evaluationErrorOf(() => compileExpression("${substring('abc', 1.5)}")(exchange)).message,
    ).toContain("substring() expects a whole number");
    expect(evaluationErrorOf(() => compileExpression("${join(header.a)}")(exchange)).message).toContain(
      'join() expects an array, found string "abc"',
    );
    expect(
      evaluationErrorOf(() => compileExpression("${replace('a', '', 'b')}")(exchange)).message,
    ).toContain("replace() needs a non-empty text to search for");
    expect(
      evaluationErrorOf(() => compileExpression("${header.a IN header.a.length}")(exchange)).message,
    ).toContain('IN expects a list, an array or "a,b" text, found number 3');
  });

  it("reports a regex input longer than the limit", () => {
    const exchange = exchangeOf({ body: "a".repeat(100_001) });
    expect(evaluationErrorOf(() => compilePredicate("body regex 'a+'")(exchange)).message).toContain(
      "regex input is 100001 characters long; the limit is 100000",
    );
  });

  it("reports a value that cannot be rendered as JSON text", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(
      evaluationErrorOf(() => compileExpression("body: ${body}")(exchangeOf({ body: cyclic }))).message,
    ).toContain("cannot render an object as JSON text");
  });

  it("reports jpath() and xpath() failures with the inner message", () => {
    const exchange = exchangeOf({ body: "not json" });
    expect(evaluationErrorOf(() => compileExpression("${jpath('$.a')}")(exchange)).message).toContain(
      'Expression "${jpath(\'$.a\')}" failed: JSONPath "$.a": the document is not valid JSON',
    );
    expect(evaluationErrorOf(() => compileExpression("${xpath('//a')}")(exchange)).message).toContain(
      "XML document is not well-formed",
    );
    expect(
      evaluationErrorOf(() => compileExpression("${jpath(1)}")(exchangeOf({ body: {} }))).message,
    ).toContain("jpath() expects a path text, found number 1");
  });

  it("refuses a JSONPath or XPath computed from the message (untrusted text) when compiling", () => {
    expect(() => compileExpression("${jpath(header.p)}")).toThrow(
      /jpath\(\) takes its JSONPath as a literal text written in the route.*json_path tool step/,
    );
    expect(() => compileExpression("${xpath(body.query, header.doc)}")).toThrow(
      /xpath\(\) takes its XPath as a literal text written in the route.*xpath tool step/,
    );
  });
});
