import { ExpressionError } from "@routekit/core";
import { checkUntrustedJsonPath, checkUntrustedXPath } from "@routekit/core/internal";
import { describe, expect, it } from "vitest";

function refusal(check: () => void): ExpressionError {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error("expected the expression to be refused");
}

describe("the XPath dialect accepted from untrusted sources", () => {
  it.each([
    "//book[1]/title",
    "string(//title)",
    "count(//book[@price > 10])",
    "sum(//item/@qty) div 2",
    "//a[contains(., 'let $x')]",
    "upper-case(//name)",
    "//to/from",
  ])("accepts %s", (expression) => {
    expect(() => checkUntrustedXPath(expression)).not.toThrow();
  });

  it.each([
    [
      "let $f := function($f,$n){ if ($n = 0) then 1 else $f($f,$n - 1) + $f($f,$n - 1) } return $f($f, 24)",
      "an inline function",
    ],
    ["count(for $i in 1 to 100000000 return $i)", "a for expression"],
    ["count(1 to 100000000)", "a range (a to b)"],
    ["let $x := 1 return $x", "a let binding"],
    ["some $x in //a satisfies $x = 1", "a quantified expression"],
    ["//a => count()", "the arrow operator"],
    ["count#1(//a)", "a function reference"],
    ["map { 'a': 1 }", "a map or array constructor"],
    ["'a' || 'b'", "the string concatenation operator"],
    ["//a ! string()", "the simple map operator"],
    ["matches(//a, '(a+)+$')", "the function matches()"],
    ["string-join(//a, ',')", "the function string-join()"],
    ["fn:tokenize(//a, 'x')", "the function fn:tokenize()"],
  ])("refuses %s, naming %s", (expression, what) => {
    const error = refusal(() => checkUntrustedXPath(expression));
    expect(error.message).toContain(what);
    expect(error.message).toContain("is not accepted from an untrusted source");
  });
});

describe("the JSONPath dialect accepted from untrusted sources", () => {
  it.each([
    "$.store.book[0].title",
    "$..price",
    "$.items[?(@.price > 10 && @.tag == 'a/b')]",
    "$.items[?(!@.hidden || (@.n * 2) >= 4)]",
    "$..book..price",
    "$.a[(@.length - 1)]",
  ])("accepts %s", (path) => {
    expect(() => checkUntrustedJsonPath(path)).not.toThrow();
  });

  it.each([
    ["$[?(@.s.match(/^(a+)+$/))]", "a function or method call (match()"],
    ["$[?(@.s =~ /x/)]", "a regex match operator"],
    ["$[?(@.n / 2 > 1)]", "a regular expression literal or division"],
    ["$[?(@.s.repeat(100000000))]", "a function or method call (repeat()"],
    ["$[?(@.a = 1)]", "an assignment"],
    ["$..*..*..*", "more than 2 recursive descents"],
    ["$[?(@.constructor('x'))]", "a function or method call (constructor()"],
  ])("refuses %s, naming %s", (path, what) => {
    const error = refusal(() => checkUntrustedJsonPath(path));
    expect(error.message).toContain(what);
    expect(error.column).toBeGreaterThan(0);
  });
});
