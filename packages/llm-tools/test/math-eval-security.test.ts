import { describe, expect, it } from "vitest";
import { LlmToolsError } from "../src/errors.js";
import { mathEval } from "../src/math-eval/index.js";
import { thrownBy } from "./support/failures.js";

const failure = (expression: string): Error => thrownBy(() => mathEval(expression));

describe("math_eval disabled functions", () => {
  it.each([
    ["import({x: 1}, {override: true})", "import"],
    ["createUnit('foo')", "createUnit"],
    ["evaluate('1 + 1')", "evaluate"],
    ["parse('1')", "parse"],
    ["compile('1')", "compile"],
    ["simplify('x + x')", "simplify"],
    ["derivative('x^2', 'x')", "derivative"],
    ["rationalize('1/x + 1')", "rationalize"],
    ["resolve(x, {x: 1})", "resolve"],
    ["reviver('x', 1)", "reviver"],
    ["parser()", "parser"],
    ["chain(3)", "chain"],
    ["help(sin)", "help"],
    ["config({number: 'BigNumber'})", "config"],
    ["typed('f', {})", "typed"],
    ["f = evaluate; f('1')", "evaluate"],
    ["map(['1'], evaluate)", "evaluate"],
  ])("refuses %s naming '%s'", (expression, name) => {
    const error = failure(expression);
    expect(error).toBeInstanceOf(LlmToolsError);
    expect(error).toMatchObject({ code: "TOOL_GUARD_REFUSED", toolName: "math_eval" });
    expect(error.message).toBe(`math_eval: function '${name}' is disabled`);
  });

  it("leaves the shared instance unchanged after a config attempt", () => {
    failure("config({number: 'BigNumber', precision: 4})");
    expect(mathEval("0.1 + 0.2")).toBe("0.30000000000000004");
    expect(mathEval("typeOf(1/3)")).toBe('"number"');
  });

  it("leaves the unit registry unchanged after a createUnit attempt", () => {
    failure("createUnit('zorp', '42 m')");
    expect(failure("2 zorp").message).toContain("Undefined symbol zorp");
  });

  it("refuses functions outside the allowed list, whose cost cannot be bounded", () => {
    for (const name of [
      "eigs",
      "schur",
      "sqrtm",
      "expm",
      "solveODE",
      "setUnion",
      "fft",
      "matrixFromFunction",
    ]) {
      const error = failure(`${name}([[1, 2], [3, 4]])`);
      expect(error).toMatchObject({ code: "TOOL_GUARD_REFUSED" });
      expect(error.message).toMatch(new RegExp(`^math_eval: function '${name}' is not available`));
    }
  });

  it("refuses names reserved for the engine", () => {
    expect(failure("__routekit_tick(1)").message).toBe("math_eval: the name '__routekit_tick' is reserved");
  });
});

describe("math_eval sandbox escapes", () => {
  it.each([
    ["matrix([1]).resize([1000])", "matrix([1]).resize([1000])"],
    ["f(x) = x; f.toString()", "f.toString()"],
    ["unit('1 m').to('cm')", 'unit("1 m").to("cm")'],
    ["[1, 2].map(sqrt)", "[1, 2].map(sqrt)"],
  ])("refuses the method call in %s", (expression, found) => {
    const error = failure(expression);
    expect(error).toMatchObject({ code: "TOOL_GUARD_REFUSED" });
    expect(error.message).toBe(`math_eval: method calls are not allowed (found '${found}')`);
  });

  it.each([
    'cos.constructor("return process")()',
    "[].map.constructor",
    "f(x) = x; f.constructor",
    'f(x) = x; g = f.constructor; g("globalThis.pwned = 1")',
    "sin.constructor",
    '"abc".constructor',
    "a = {}; a.__proto__.pwned = 1",
    'a = {}; a["__proto__"]["pwned"] = 1',
    "a = {}; a.constructor.prototype.pwned = 1",
    "[1].__proto__",
  ])("blocks %s without running code or changing prototypes", (expression) => {
    const error = failure(expression);
    expect(error).toBeInstanceOf(LlmToolsError);
    expect(error.message).toMatch(/^math_eval: /);
    expect(Object.hasOwn(globalThis, "pwned")).toBe(false);
    expect(Object.hasOwn(Object.prototype, "pwned")).toBe(false);
    expect(({} as Record<string, unknown>).pwned).toBeUndefined();
  });

  it("drops a __proto__ key of an object literal instead of setting a prototype", () => {
    expect(mathEval('x = {"__proto__": {"pwned": 1}}; x.pwned')).toBe("null");
    expect(Object.hasOwn(Object.prototype, "pwned")).toBe(false);
  });

  it("names the blocked property access", () => {
    expect(failure("f(x) = x; f.constructor").message).toBe(
      'math_eval: evaluating the expression failed: No access to property "constructor"',
    );
    expect(failure("[].map.constructor").message).toBe(
      'math_eval: evaluating the expression failed: Cannot access method "map" as a property',
    );
  });
});
