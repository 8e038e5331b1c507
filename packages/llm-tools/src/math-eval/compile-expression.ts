import type { EvalFunction } from "mathjs";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { prepareExpression } from "./check-expression.js";
import { hardenedMath } from "./hardened-math.js";
import { translateLogicalWords } from "./logical-words.js";

const TOOL_NAME = "math_eval";
const CACHE_SIZE = 512;
/** Estimated bytes a compiled expression holds per character of its text (measured: about 260). */
const BYTES_PER_CHAR = 320;
/** Estimated bytes the cache may hold: 512 expressions of 4096 characters would be over 500 MB. */
const CACHE_BYTES = 16 * 1024 * 1024;
const cache = new Map<string, EvalFunction>();
let cachedBytes = 0;

/**
 * Parses, checks and compiles an expression on the hardened instance. Compiled expressions are kept
 * in a cache bounded in entries and in estimated bytes (the oldest entry leaves first; a hit does
 * not reorder, which keeps hits cheap), so repeating an expression skips all of it.
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
  remember(expression, compiled);
  return compiled;
}

/** Keeps a compiled expression, dropping the oldest ones past the entry or byte bound. */
function remember(expression: string, compiled: EvalFunction): void {
  const bytes = expression.length * BYTES_PER_CHAR;
  if (bytes > CACHE_BYTES) return;
  while (cache.size > 0 && (cache.size >= CACHE_SIZE || cachedBytes + bytes > CACHE_BYTES)) {
    const oldest = cache.keys().next();
    if (oldest.done === true) break;
    cache.delete(oldest.value);
    cachedBytes -= oldest.value.length * BYTES_PER_CHAR;
  }
  cache.set(expression, compiled);
  cachedBytes += bytes;
}
