import type { EvaluationMeter } from "./evaluation-meter.js";

/**
 * A check run before a guarded function: it may draw from the meter's element budget, and throws
 * (TOOL_LIMIT_EXCEEDED) when the call would cost more than the limits allow.
 */
export type Guard = (args: readonly unknown[], meter: EvaluationMeter, functionName: string) => void;

/** A guard that runs several guards in order. */
export function allOf(...guards: Guard[]): Guard {
  return (args, meter, functionName) => {
    for (const guard of guards) guard(args, meter, functionName);
  };
}

/** A guard and the typed-function signatures it applies to (all when `signatures` is absent). */
export interface GuardRule {
  readonly check: Guard;
  /** Signatures (such as "Array, any" or "number, number") that need the check. */
  readonly signatures?: RegExp;
}

/**
 * Signatures that can combine collections or grow exact numbers; operations on plain numbers,
 * BigNumbers, complex numbers and units cost constant time and skip the element-wise checks.
 */
export const COLLECTION_OR_EXACT_SIGNATURES = /Array|Matrix|any|bigint|Fraction|\.\.\./;
