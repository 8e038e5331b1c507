import type { EvalFunction } from "mathjs";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { prepareExpression } from "./check-expression.js";
import { hardenedMath } from "./hardened-math.js";
import { translateLogicalWords } from "./logical-words.js";

const TOOL_NAME = "math_eval";
const CACHE_SIZE = 512;
const cache = new Map<string, EvalFunction>();

/**
 * Parses, checks and compiles an expression on the hardened instance. Compiled expressions are kept
 * in a bounded cache (the oldest entry leaves first; a hit does not reorder, which keeps hits cheap),
 * so repeating an expression skips all of it.
 */
export function compileExpression(expression: string): EvalFunction {
  const cached = cache.get(expression);
  if (cached !== undefined) return cached;
  const math = hardenedMath();
  let compiled: EvalFunction;
  try {
    compiled = prepareExpression(math.parse(translateLogicalWords(expression)), math).compile();
  } catch (error) {
    if (error instanceof LlmToolsError) throw error;
    const reason = reasonOf(error);
    throw new ToolInputError(
      TOOL_NAME,
      `${TOOL_NAME}: key 'expression' is not a valid expression: ${reason}`,
      "expression",
    );
  }
  cache.set(expression, compiled);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  return compiled;
}
