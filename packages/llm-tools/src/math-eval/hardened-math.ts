import type { MathNode } from "mathjs";
import { LlmToolsError } from "../errors.js";
import { currentMeter } from "./evaluation-meter.js";
import { FUNCTION_GUARDS } from "./function-guards.js";
import { DISABLED_FUNCTIONS } from "./function-lists.js";
import { guardFunction, type TypedFactory } from "./guard-function.js";
import { guardedLogicalOperators } from "./logical-operators.js";
import { mathjs } from "./mathjs-module.js";
import { userFunctionResultGuard } from "./matrix-guards.js";

/** The function every user-defined function's body is wrapped in: it counts a step and the result. */
export const TICK_FUNCTION = "__routekit_tick";

/** What the evaluator needs from the hardened mathjs instance. */
export interface HardenedMath {
  /** The original parser, kept before `parse` was disabled. */
  readonly parse: (expression: string) => MathNode;
  /** The namespace expressions resolve names in (mathjs's mathWithTransform). */
  readonly namespace: Readonly<Record<string, unknown>>;
  /** Wraps a node in a call of the step-counting function. */
  readonly tickCall: (node: MathNode) => MathNode;
}

let instance: HardenedMath | undefined;

/** The one hardened mathjs instance of this process, created on first use. */
export function hardenedMath(): HardenedMath {
  instance ??= createHardenedMath();
  return instance;
}

/** The error a disabled function throws, naming it. */
export function disabledFunctionError(name: string): LlmToolsError {
  return new LlmToolsError("TOOL_GUARD_REFUSED", "math_eval", `math_eval: function '${name}' is disabled`);
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

function createHardenedMath(): HardenedMath {
  const { all, create } = mathjs();
  if (all === undefined) throw new Error("mathjs exports no 'all' factories");
  const math = create(all);
  const parse = math.parse;
  const { FunctionNode, SymbolNode } = math;
  const instanceFunctions = math as unknown as Record<string, unknown>;
  const namespace = (math.expression as unknown as { mathWithTransform: Record<string, unknown> })
    .mathWithTransform;

  // Disabled on the instance itself (and with it in the expression namespace), as mathjs's
  // security notes advise; `config` and `typed` only in the namespace, because mathjs's own
  // factories read them from the instance.
  const disabled: Record<string, () => never> = {};
  for (const name of DISABLED_FUNCTIONS) {
    disabled[name] = () => {
      throw disabledFunctionError(name);
    };
  }
  const { config, typed, ...onInstance } = disabled;
  math.import(onInstance, { override: true });
  // mathjs's array literals read `config.matrix` from the namespace: keep the settings readable.
  define(namespace, "config", Object.assign(config as object, math.config({})));
  define(namespace, "typed", typed);

  // Guards are built when an expression first uses a function, as mathjs builds its functions.
  const typedFactory = math.typed as unknown as TypedFactory;
  for (const [name, guard] of Object.entries(FUNCTION_GUARDS)) {
    const original = lazyValue(namespace, name);
    defineLazy(namespace, name, () => guardFunction(name, functionOf(original(), name), guard, typedFactory));
  }
  const logical = guardedLogicalOperators((name) => functionOf(instanceFunctions[name], name));
  for (const [name, operator] of Object.entries(logical)) define(namespace, name, operator);
  define(namespace, TICK_FUNCTION, (value: unknown) => {
    const meter = currentMeter();
    meter.tick();
    meter.guard(() => userFunctionResultGuard([value], meter, TICK_FUNCTION));
    return value;
  });

  return {
    parse,
    namespace,
    tickCall: (node) => new FunctionNode(new SymbolNode(TICK_FUNCTION), [node]),
  };
}

function define(namespace: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(namespace, name, { value, writable: false, configurable: false, enumerable: true });
}

/** Defines a read-only property whose value `create` makes on first read. */
function defineLazy(namespace: Record<string, unknown>, name: string, create: () => unknown): void {
  let value: unknown;
  let created = false;
  const get = () => {
    if (!created) {
      value = create();
      created = true;
    }
    return value;
  };
  Object.defineProperty(namespace, name, { get, configurable: false, enumerable: true });
}

/** Reads a property later without triggering mathjs's lazy factory now. */
function lazyValue(namespace: Record<string, unknown>, name: string): () => unknown {
  const descriptor = Object.getOwnPropertyDescriptor(namespace, name);
  if (descriptor === undefined) throw new Error(`mathjs has no function '${name}' to guard`);
  const getter = descriptor.get;
  return getter === undefined ? () => descriptor.value : () => getter.call(namespace);
}

function functionOf(value: unknown, name: string): AnyFunction {
  if (typeof value !== "function") throw new Error(`mathjs's '${name}' is not a function`);
  return value as AnyFunction;
}
