import { currentMeter } from "./evaluation-meter.js";
import type { GuardRule } from "./guard.js";

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type TypedFunction = AnyFunction & { signatures: Record<string, AnyFunction> };
/** mathjs's `typed`: builds a typed-function from a name and its signatures. */
export type TypedFactory = (name: string, signatures: Record<string, AnyFunction>) => AnyFunction;

/**
 * Wraps a mathjs function so the rule's check runs (and a step is counted towards the deadline)
 * before every call from an expression. A typed-function keeps its signatures, so mathjs still
 * dispatches and converts types as before; only the signatures the rule names are wrapped, and the
 * arguments of a rest parameter reach the check spread out.
 */
export function guardFunction(
  name: string,
  original: AnyFunction,
  rule: GuardRule,
  typed: TypedFactory,
): AnyFunction {
  const check = (args: readonly unknown[]) => {
    const meter = currentMeter();
    meter.tick();
    meter.guard(() => rule.check(args, meter, name));
  };
  if (!isTypedFunction(original)) {
    const wrapper = function (this: unknown, ...args: unknown[]) {
      check(args);
      return original.apply(this, args);
    };
    return Object.assign(wrapper, original);
  }
  const signatures: Record<string, AnyFunction> = {};
  for (const [signature, implementation] of Object.entries(original.signatures)) {
    if (rule.signatures !== undefined && !rule.signatures.test(signature)) {
      signatures[signature] = implementation;
      continue;
    }
    const hasRest = signature.includes("...");
    signatures[signature] = function (this: unknown, ...args: unknown[]) {
      check(hasRest ? spreadRest(args) : args);
      return implementation.apply(this, args);
    };
  }
  return typed(name, signatures);
}

function isTypedFunction(value: AnyFunction): value is TypedFunction {
  const signatures = (value as { signatures?: unknown }).signatures;
  return typeof signatures === "object" && signatures !== null;
}

/** A typed-function receives a rest parameter as one array in the last position. */
function spreadRest(args: unknown[]): unknown[] {
  const rest = args.at(-1);
  return Array.isArray(rest) ? [...args.slice(0, -1), ...rest] : args;
}
