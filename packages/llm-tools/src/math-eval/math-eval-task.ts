// The math_eval job a budget worker runs (a module of its own: functions cannot cross threads).
import { hardenedMath } from "./hardened-math.js";
import { mathEval } from "./math-eval.js";

// Build the hardened mathjs instance while the worker loads this module (not counted against a
// job's deadline), not on the first evaluation.
hardenedMath();

/** One math_eval job: an untrusted expression and the guards' limits. */
export interface MathEvalJob {
  readonly expression: string;
  readonly maxExpressionChars: number;
  readonly maxMatrixElements: number;
  readonly timeoutMs: number;
}

/** Evaluates on this worker's hardened mathjs instance, with every guard of `mathEval`. */
export function mathEvalJob(job: MathEvalJob): string {
  const { expression, ...limits } = job;
  return mathEval(expression, limits);
}
