import { scaledMs } from "@routekit/test-support";
import { describe, expect, it } from "vitest";
import { LlmToolsError } from "../src/errors.js";
import { type MathEvalOptions, mathEval, resolveMathEvalOptions } from "../src/math-eval/index.js";
import { thrownBy } from "./support/failures.js";

const failure = (expression: string, options?: MathEvalOptions): Error =>
  thrownBy(() => mathEval(expression, options));

function limit(expression: string, options?: MathEvalOptions): string {
  const error = failure(expression, options);
  expect(error).toBeInstanceOf(LlmToolsError);
  expect(error).toMatchObject({ code: "TOOL_LIMIT_EXCEEDED", toolName: "math_eval" });
  return error.message;
}

describe("math_eval matrix sizes", () => {
  it.each([
    ["zeros(2000, 2000)", "zeros would create 4000000 elements"],
    ["ones(1e6)", "ones would create 1000000 elements"],
    ["range(0, 1e9)", "range would create 1000000001 elements"],
    ["1:1e9", "range would create 1000000000 elements"],
    ["range('0:1e9')", "range would create 1000000001 elements"],
    ["identity(200)", "identity would create 40000 elements"],
    ["random([1000, 1000])", "random would create 1000000 elements"],
    ["resize([1], [200, 200])", "resize would create 40000 elements"],
    ["pickRandom([1, 2], 1e9)", "pickRandom would create 1000000000 elements"],
    ["nthRoots(1, 1e9)", "nthRoots would create 1000000000 elements"],
    ["diag(ones(200))", "diag would create 40000 elements"],
    ["kron(ones(200), ones(200))", "kron would create 40000 elements"],
    ["ones(1000, 1) + ones(1, 1000)", "add would create 1000000 elements"],
    ["ones(1000, 1) == ones(1, 1000)", "equal would create 1000000 elements"],
    ["ones(1000, 1) and ones(1, 1000)", "and would create 1000000 elements"],
    ["multiply(ones(1000, 1), ones(1, 1000))", "multiply would create 1000000 elements"],
  ])("refuses %s before allocating", (expression, reason) => {
    expect(limit(expression)).toBe(`math_eval: ${reason}, more than maxMatrixElements (10000)`);
  });

  it("allows matrices up to maxMatrixElements, which an option moves", () => {
    expect(JSON.parse(mathEval("size(ones(10000))"))).toEqual([10000]);
    expect(limit("ones(10001)")).toContain("ones would create 10001 elements");
    expect(mathEval("size(ones(20000))", { maxMatrixElements: 20_000 })).toBe("[20000]");
    expect(limit("ones(11)", { maxMatrixElements: 10 })).toContain("more than maxMatrixElements (10)");
    expect(mathEval("ones(100, 1) + ones(1, 100)")).toMatch(/^\[\[2,2,/);
  });

  it("refuses assignments past the end that would grow a matrix too far", () => {
    expect(limit("a = [1]; a[1e9] = 1")).toBe(
      "math_eval: an index reaches 1000000001 elements, more than maxMatrixElements (10000)",
    );
    expect(limit("a = [1]; a[1000, 1000] = 1")).toContain("an index reaches 1002001 elements");
    expect(limit("a = 'x'; a[1e9] = 'y'")).toContain("an index reaches");
    expect(JSON.parse(mathEval("a = [1]; a[100] = 1; size(a)"))).toEqual([100]);
  });

  it("bounds the elements all matrices of one evaluation create together", () => {
    expect(limit("map(ones(1000), f(x) = sum(ones(1000)))")).toBe(
      "math_eval: the expression creates more than 100000 matrix elements in total (10 x maxMatrixElements)",
    );
    const literal = `[${Array.from({ length: 1000 }, () => "x").join(", ")}]`;
    expect(limit(`map(ones(1000), f(x) = sum(${literal}))`)).toContain(
      "more than 100000 matrix elements in total",
    );
  });

  it("counts the collections and text user-defined functions return, which map keeps", () => {
    expect(limit("A = ones(5000); map(ones(100), f(x) = clone(A))")).toContain(
      "more than 100000 matrix elements in total",
    );
    expect(limit("s = format(ones(5000)); map(ones(1000), f(x) = s)")).toContain(
      "more than 100000 matrix elements in total",
    );
    expect(mathEval("f(x) = [x, x]; map([1, 2], f)")).toBe("[[1,1],[2,2]]");
  });

  it("doubling a matrix again and again stops at the limit", () => {
    expect(limit(`a = [1]; ${"a = concat(a, a); ".repeat(20)} size(a)`)).toContain(
      "concat would create 16384 elements",
    );
  });
});

describe("math_eval costly functions", () => {
  it("bounds the cubic matrix algorithms and the matrix 2-norm", () => {
    expect(mathEval("det(identity(64))")).toBe("1");
    expect(limit("det(identity(65))")).toBe(
      "math_eval: det accepts matrices up to 64 x 64 (found a side of 65)",
    );
    expect(limit("inv(identity(65))")).toContain("inv accepts matrices up to 64 x 64");
    expect(limit("identity(65) ^ 3")).toContain("pow accepts matrices up to 64 x 64");
    expect(limit("ones(1, 65) / identity(65)")).toContain("divide accepts matrices up to 64 x 64");
    expect(limit("norm(ones(17, 17), 2)")).toBe(
      "math_eval: norm(A, 2) accepts matrices up to 16 x 16 (found a side of 17)",
    );
    expect(mathEval("norm(ones(17, 17), 'fro')")).toBe("17");
  });

  it("bounds the steps of a matrix product", () => {
    expect(limit("ones(101, 101) * ones(101, 101)", { maxMatrixElements: 20_000 })).toBe(
      "math_eval: multiply would take 1030301 multiply steps, more than 1000000",
    );
  });

  it("bounds combinatorics that loop over their arguments", () => {
    expect(limit("factorial(bignumber(20000))")).toBe(
      "math_eval: factorial would loop 20000 times, more than 10000",
    );
    expect(mathEval("factorial(20000)")).toBe("null");
    expect(limit("combinations(1e9, 5e8)")).toContain("combinations would loop 500000000 times");
    expect(mathEval("combinations(1e9, 2)")).toBe("499999999500000000");
    expect(limit("permutations(1e9)")).toContain("permutations would loop 1000000000 times");
    expect(limit("catalan(bignumber(20000))")).toContain("catalan would loop 20000 times");
    expect(limit("stirlingS2(2000, 1000)")).toContain("stirlingS2 would loop 2000 times, more than 1000");
    expect(limit("bernoulli(5000)")).toContain("bernoulli would loop 5000 times, more than 2000");
  });

  it("bounds isPrime by the divisors it would try", () => {
    expect(mathEval("isPrime(999999999989)")).toBe("true");
    expect(limit("isPrime(9007199254740881)")).toBe(
      "math_eval: isPrime would try 94906266 divisors, more than 3000000",
    );
    expect(limit("isPrime(ones(100) * 999999999989)")).toContain("isPrime would try");
  });

  it("bounds the growth of exact integers and fractions", () => {
    expect(mathEval("bigint(2) ^ bigint(64)")).toBe("18446744073709551616");
    expect(limit("bigint(2) ^ bigint(1000000)")).toBe(
      "math_eval: pow would produce an exact number of about 4000000 bits, more than 131072",
    );
    expect(limit("fraction(1, 3) ^ 100000")).toContain("pow would produce an exact number");
    expect(limit("a = bigint(3) ^ bigint(30000); a * a * a")).toContain("multiply would produce");
  });

  it("bounds text functions", () => {
    expect(mathEval("format(pi, 5)")).toBe('"3.1416"');
    expect(limit("format(pi, 5000)")).toBe("math_eval: format accepts a precision up to 1000 (found 5000)");
    expect(limit("format(bignumber('1e100000'), {notation: 'fixed'})")).toBe(
      "math_eval: format accepts BigNumbers with a decimal exponent up to 10000 (found 100000)",
    );
    expect(limit(`print("${"$a".repeat(200)}", {a: format(ones(5000))})`)).toMatch(
      /^math_eval: print could produce \d+ characters, more than 1048576$/,
    );
    expect(limit("hex(255, 100000)")).toContain("hex accepts a word size up to 4096");
  });
});

describe("math_eval timeout", () => {
  it("stops exponential recursion at timeoutMs", () => {
    const started = performance.now();
    const error = failure("g(n) = n > 0 ? g(n - 1) + g(n - 1) : 1; g(60)", { timeoutMs: 200 });
    expect(error).toMatchObject({ code: "TOOL_TIMEOUT", toolName: "math_eval" });
    expect(error.message).toBe("math_eval: evaluation ran longer than timeoutMs (200 ms) and was stopped");
    expect(performance.now() - started).toBeLessThan(scaledMs(5000));
  });

  it("stops a callback that keeps running at timeoutMs", () => {
    const error = failure("k(n) = n > 0 ? k(n - 1) : 0; map(ones(10000), f(x) = k(500))", { timeoutMs: 200 });
    expect(error).toMatchObject({ code: "TOOL_TIMEOUT" });
  });

  it("evaluates normally after a timeout", () => {
    failure("g(n) = n > 0 ? g(n - 1) + g(n - 1) : 1; g(60)", { timeoutMs: 50 });
    expect(mathEval("g(n) = n > 0 ? g(n - 1) + g(n - 1) : 1; g(10)")).toBe("1024");
  });
});

describe("math_eval expression length and options", () => {
  it("refuses an expression longer than maxExpressionChars (default 4096)", () => {
    const longest = `sum([${"1,".repeat(2044)}1])`;
    expect(longest).toHaveLength(4096);
    expect(mathEval(longest)).toBe("2045");
    expect(limit(`${longest} `)).toBe(
      "math_eval: key 'expression' has 4097 characters, more than maxExpressionChars (4096)",
    );
    expect(limit("1 + 1", { maxExpressionChars: 3 })).toContain("more than maxExpressionChars (3)");
  });

  it("fills in the defaults", () => {
    expect(resolveMathEvalOptions()).toEqual({
      maxExpressionChars: 4096,
      maxMatrixElements: 10_000,
      timeoutMs: 1000,
    });
  });

  it.each([
    [{ timeoutMs: 0 }, "option 'timeoutMs' must be a whole number >= 1 (found number 0)"],
    [{ maxMatrixElements: 2.5 }, "option 'maxMatrixElements' must be a whole number >= 1 (found number 2.5)"],
    [
      { maxExpressionChars: "10" },
      `option 'maxExpressionChars' must be a whole number >= 1 (found string "10")`,
    ],
    [
      { timeout: 5 },
      "unknown option 'timeout' (did you mean 'timeoutMs'?) (expected one of maxExpressionChars, maxMatrixElements, timeoutMs, budget)",
    ],
    [null, "options must be an object (found null)"],
  ])("refuses %o", (options, message) => {
    const attempt = () => mathEval("1", options as MathEvalOptions);
    expect(attempt).toThrow(LlmToolsError);
    expect(attempt).toThrow(`math_eval: ${message}`);
  });
});
