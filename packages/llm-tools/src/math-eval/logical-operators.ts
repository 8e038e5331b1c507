import type { MathNode } from "mathjs";
import { currentMeter } from "./evaluation-meter.js";
import { mathjs } from "./mathjs-module.js";
import { elementwiseGuard } from "./matrix-guards.js";

type PlainFunction = (...args: unknown[]) => unknown;

/** A mathjs function that receives its argument nodes unevaluated (how `and` short-circuits). */
export type RawArgumentsFunction = ((args: MathNode[], math: unknown, scope: unknown) => unknown) & {
  rawArgs: true;
};

/** The five operators mathjs evaluates lazily, and the left values that decide them alone. */
const SHORT_CIRCUITS: Readonly<
  Record<string, (left: unknown, plain: PlainFunction) => { value: unknown } | undefined>
> = {
  and: (left, plain) => (plain(left, true) ? undefined : { value: false }),
  or: (left, plain) => (plain(left, false) ? { value: true } : undefined),
  bitAnd: (left) =>
    Number.isNaN(Number(left))
      ? { value: Number.NaN }
      : left === 0 || left === false
        ? { value: 0 }
        : undefined,
  bitOr: (left) =>
    Number.isNaN(Number(left))
      ? { value: Number.NaN }
      : left === -1
        ? { value: -1 }
        : left === true
          ? { value: 1 }
          : undefined,
  nullish: (left) => (left !== null && left !== undefined ? { value: left } : undefined),
};

/**
 * Replacements for mathjs's lazy `and`, `or`, `bitAnd`, `bitOr` and `nullish` (also behind the
 * operators `and`, `or`, `&`, `|`, `??`): the same short-circuit rules, with the element-wise
 * size guard before two collections are combined. `resolve` returns the instance's eager function.
 */
export function guardedLogicalOperators(
  resolve: (name: string) => PlainFunction,
): Record<string, RawArgumentsFunction> {
  const operators: Record<string, RawArgumentsFunction> = {};
  for (const [name, shortCircuit] of Object.entries(SHORT_CIRCUITS)) {
    let resolved: PlainFunction | undefined;
    const operator = (args: MathNode[], _math: unknown, scope: unknown) => {
      resolved ??= resolve(name);
      const eager = resolved;
      const [leftNode, rightNode] = args;
      if (leftNode === undefined || rightNode === undefined) return eager(...args);
      const left = evaluateNode(leftNode, scope);
      if (!mathjs().isCollection(left)) {
        const decided = shortCircuit(left, eager);
        if (decided !== undefined) return decided.value;
      }
      const right = evaluateNode(rightNode, scope);
      const meter = currentMeter();
      meter.tick();
      meter.guard(() => elementwiseGuard([left, right], meter, name));
      return eager(left, right);
    };
    operators[name] = Object.assign(operator, { rawArgs: true as const });
  }
  return operators;
}

function evaluateNode(node: MathNode, scope: unknown): unknown {
  return node.compile().evaluate(scope as Parameters<ReturnType<MathNode["compile"]>["evaluate"]>[0]);
}
