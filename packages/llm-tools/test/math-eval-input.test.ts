import { describe, expect, it } from "vitest";
import { ToolInputError } from "../src/errors.js";
import { MATH_EVAL_INPUT_SCHEMA, runMathEval } from "../src/math-eval/index.js";
import { thrownBy } from "./support/failures.js";

const failure = (body: unknown): Error => thrownBy(() => runMathEval(body));

describe("runMathEval tool form", () => {
  it("reads an input object, its JSON text and its UTF-8 bytes", () => {
    expect(runMathEval({ expression: "2 * (3 + 4)" })).toBe("14");
    expect(runMathEval('{"expression": "2 * (3 + 4)"}')).toBe("14");
    expect(runMathEval(new TextEncoder().encode('  {"expression": "2 ^ 3"}'))).toBe("8");
  });

  it.each([
    [undefined, "math_eval: input is empty (expected a JSON object)", undefined],
    [42, "math_eval: input is not a JSON object (found number 42)", undefined],
    [["1 + 1"], "math_eval: input is not a JSON object (found an array)", undefined],
    [{}, "math_eval: required key 'expression' is missing", "expression"],
    [{ expression: 5 }, "math_eval: key 'expression' must be a string (found number 5)", "expression"],
    ['{"expr": "1 + 1"}', "math_eval: required key 'expression' is missing", "expression"],
    [{ expression: "" }, "math_eval: key 'expression' is empty", "expression"],
  ])("refuses %o with a clear error", (body, message, key) => {
    const error = failure(body);
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe(message);
    expect((error as ToolInputError).key).toBe(key);
  });
});

describe("runMathEval enrichment form", () => {
  it("reads any text that is not a JSON object as the expression itself", () => {
    expect(runMathEval("2 * (3 + 4)")).toBe("14");
    expect(runMathEval("x = 2; x > 1 AND x < 3")).toBe("true");
    expect(runMathEval(new TextEncoder().encode("sqrt(16)"))).toBe("4");
  });

  it("reads text starting with { as the JSON input, so an object literal goes in parentheses", () => {
    expect(failure("{a: 1 + 1}").message).toMatch(
      /^math_eval: input is not valid JSON \(.+\); expected a JSON object$/,
    );
    expect(runMathEval("({a: 1 + 1})")).toBe('{"a":2}');
  });

  it("refuses empty text", () => {
    expect(failure("   ").message).toBe("math_eval: key 'expression' is empty");
  });

  it("applies the options to both forms", () => {
    expect(() => runMathEval("ones(11)", { maxMatrixElements: 10 })).toThrow(
      "more than maxMatrixElements (10)",
    );
    expect(() => runMathEval({ expression: "1 + 1" }, { maxExpressionChars: 3 })).toThrow(
      "more than maxExpressionChars (3)",
    );
  });
});

describe("MATH_EVAL_INPUT_SCHEMA", () => {
  it("describes the seed's contract: one required expression", () => {
    expect(MATH_EVAL_INPUT_SCHEMA.type).toBe("object");
    expect(Object.keys(MATH_EVAL_INPUT_SCHEMA.properties)).toEqual(["expression"]);
    expect(MATH_EVAL_INPUT_SCHEMA.properties.expression.type).toBe("string");
    expect(MATH_EVAL_INPUT_SCHEMA.required).toEqual(["expression"]);
  });
});
