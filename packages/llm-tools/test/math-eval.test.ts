import { describe, expect, it } from "vitest";
import { ToolInputError } from "../src/errors.js";
import { mathEval } from "../src/math-eval/index.js";
import { thrownBy } from "./support/failures.js";

const failure = (expression: string): Error => thrownBy(() => mathEval(expression));

describe("math_eval results", () => {
  it.each([
    ["2 * (3 + 4)", "14"],
    ["0.1 + 0.2", "0.30000000000000004"],
    ["-0", "0"],
    ["10 / 4", "2.5"],
    ["2 ^ 10", "1024"],
    ["sqrt(16) + abs(-2)", "6"],
    ["pi", "3.141592653589793"],
    ["true", "true"],
    ['"text"', '"text"'],
    ["1e300 * 1e300", "null"],
    ["1 / 0", "null"],
    ["-1 / 0", "null"],
    ["0 / 0", "null"],
    ["NaN", "null"],
    ["null", "null"],
  ])("%s gives %s", (expression, output) => {
    expect(mathEval(expression)).toBe(output);
  });

  it("writes BigNumbers with all their digits and bigints exactly", () => {
    expect(mathEval("bignumber(1) / 3")).toBe(`0.${"3".repeat(64)}`);
    expect(mathEval('bignumber("1e400")')).toBe("1e+400");
    expect(mathEval("bigint(2) ^ bigint(80)")).toBe("1208925819614629174706176");
  });

  it("writes fractions as a string unless they are whole", () => {
    expect(mathEval("fraction(1, 3) + fraction(1, 6)")).toBe('"1/2"');
    expect(mathEval("fraction(-2, 6)")).toBe('"-1/3"');
    expect(mathEval("fraction(4, 2)")).toBe("2");
  });

  it("writes complex numbers and units as strings", () => {
    expect(mathEval("sqrt(-4)")).toBe('"2i"');
    expect(mathEval("2i + 3")).toBe('"3 + 2i"');
    expect(mathEval("5 cm + 2 cm")).toBe('"7 cm"');
    expect(JSON.parse(mathEval("10 km/h to m/s"))).toMatch(/^2\.77+\d* m \/ s$/);
  });

  it("writes matrices as nested arrays, with null for NaN", () => {
    expect(mathEval("[1, 2] + [3, 4]")).toBe("[4,6]");
    expect(mathEval("identity(2)")).toBe("[[1,0],[0,1]]");
    expect(mathEval("[1, 0/0, 2i]")).toBe('[1,null,"2i"]');
  });

  it("writes objects as JSON objects", () => {
    expect(mathEval("{a: 1, b: [1, 2], c: {d: true}}")).toBe('{"a":1,"b":[1,2],"c":{"d":true}}');
  });

  it("returns the last value of several statements, and null for a function", () => {
    expect(mathEval("a = 2; a * 3")).toBe("6");
    expect(mathEval("a = 2\nb = a + 1\nb ^ 2")).toBe("9");
    expect(mathEval("f(x) = x ^ 2; f(3)")).toBe("9");
    expect(mathEval("f(x) = x ^ 2")).toBe("null");
    expect(mathEval("a = 2;")).toBe("null");
  });
});

describe("math_eval grammar", () => {
  it("evaluates comparisons, the conditional operator and ??", () => {
    expect(mathEval("3 > 2")).toBe("true");
    expect(mathEval("2 == 2 and 3 != 4")).toBe("true");
    expect(mathEval("5 >= 6 ? 'big' : 'small'")).toBe('"small"');
    expect(mathEval("null ?? 7")).toBe("7");
  });

  it("accepts the seed's upper-case AND, OR and NOT", () => {
    expect(mathEval("3 > 2 AND 1 < 2")).toBe("true");
    expect(mathEval("NOT true OR false")).toBe("false");
    expect(mathEval("x = 4; x > 3 AND NOT (x > 5) ? 1 : 0")).toBe("1");
  });

  it("leaves AND, OR and NOT alone inside strings, in property names and inside longer names", () => {
    expect(mathEval('"AND OR NOT"')).toBe('"AND OR NOT"');
    expect(mathEval("{AND: 1}.AND")).toBe("1");
    expect(mathEval("ANDROID = 2; ANDROID + 1")).toBe("3");
  });

  it("short-circuits and, or and ?? like mathjs does", () => {
    expect(mathEval("false and undefinedName")).toBe("false");
    expect(mathEval("true or undefinedName")).toBe("true");
    expect(mathEval("5 ?? undefinedName")).toBe("5");
    expect(mathEval("0 & undefinedName")).toBe("0");
    expect(mathEval("[true, false] and [true, true]")).toBe("[true,false]");
    expect(mathEval("[1, 2] | [4, 4]")).toBe("[5,6]");
  });

  it("converts units and supports matrices, statistics and combinatorics", () => {
    expect(JSON.parse(mathEval("1 inch to cm"))).toBe("2.54 cm");
    expect(mathEval("det([[1, 2], [3, 4]])")).toBe("-2");
    expect(mathEval("mean([1, 2, 3, 4])")).toBe("2.5");
    expect(mathEval("combinations(10, 3)")).toBe("120");
    expect(mathEval("sum(1:100)")).toBe("5050");
    expect(mathEval("map([1, 2, 3], f(x) = x * 2)")).toBe("[2,4,6]");
    expect(mathEval("a = [1]; a[3] = 5; a")).toBe("[1,0,5]");
  });
});

describe("math_eval scope", () => {
  it("gives every call a fresh scope: nothing assigned in one call is seen by the next", () => {
    expect(mathEval("leaked = 5")).toBe("5");
    const error = failure("leaked");
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe("math_eval: evaluating the expression failed: Undefined symbol leaked");
    expect(mathEval("g(x) = x + 1; g(1)")).toBe("2");
    expect(failure("g(1)").message).toContain("Undefined function g");
  });

  it("answers the same expression the same way when it comes from the cache", () => {
    for (let round = 0; round < 3; round++) expect(mathEval("x = 3; x ^ 2 + 2 * x + 1")).toBe("16");
  });
});

describe("math_eval bad expressions", () => {
  it("refuses a syntax error naming the tool and the key", () => {
    const error = failure("2 * (3 + ");
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error).toMatchObject({ key: "expression", code: "TOOL_INPUT_INVALID" });
    expect(error.message).toMatch(/^math_eval: key 'expression' is not a valid expression: /);
  });

  it("refuses an empty expression and a non-string one", () => {
    expect(failure("   ").message).toBe("math_eval: key 'expression' is empty");
    expect(() => mathEval(42 as unknown as string)).toThrow(
      "math_eval: key 'expression' must be a string (found number 42)",
    );
  });

  it("reports evaluation errors with mathjs's reason", () => {
    expect(failure("inv([[1, 2], [2, 4]])").message).toBe(
      "math_eval: evaluating the expression failed: Cannot calculate inverse, determinant is zero",
    );
    expect(failure("unknownFunction(2)").message).toBe(
      "math_eval: evaluating the expression failed: Undefined function unknownFunction",
    );
  });

  it("turns runaway recursion and deep nesting into errors, not crashes", () => {
    expect(failure("f(n) = f(n + 1); f(1)").message).toContain("Maximum call stack size exceeded");
    expect(failure(`${"(".repeat(2000)}1${")".repeat(2000)}`)).toBeInstanceOf(ToolInputError);
  });
});
