import type { MathNode } from "mathjs";
import { LlmToolsError } from "../errors.js";
import { ALLOWED_FUNCTIONS, DISABLED_FUNCTIONS } from "./function-lists.js";
import { disabledFunctionError, type HardenedMath } from "./hardened-math.js";
import { mathjs } from "./mathjs-module.js";

const TOOL_NAME = "math_eval";
const RESERVED_PREFIX = "__routekit";
const LONGEST_QUOTE = 60;

/**
 * Checks a parsed expression before it is compiled: no method calls (`x.resize(...)` would reach
 * matrix internals past every guard), no disabled function, and no mathjs function outside the
 * allowed list. Then makes every user-defined function count a step and its result per call, so
 * recursion and callbacks stop at the deadline and within the element budget. Changes `root` in place.
 */
export function prepareExpression(root: MathNode, math: HardenedMath): MathNode {
  root.traverse((node) => {
    if (mathjs().isFunctionNode(node) && mathjs().isAccessorNode(node.fn)) {
      throw refused(`method calls are not allowed (found '${quote(node.toString())}')`);
    }
    if (mathjs().isSymbolNode(node)) checkName(node.name, math.namespace);
    if (mathjs().isFunctionAssignmentNode(node)) {
      for (const name of [node.name, ...node.params]) checkName(name, math.namespace);
    }
  });
  root.traverse((node) => {
    if (mathjs().isFunctionAssignmentNode(node)) node.expr = math.tickCall(node.expr);
  });
  return root;
}

function checkName(name: string, namespace: Readonly<Record<string, unknown>>): void {
  if (name.startsWith(RESERVED_PREFIX)) throw refused(`the name '${name}' is reserved`);
  if (DISABLED_FUNCTIONS.includes(name)) throw disabledFunctionError(name);
  if (ALLOWED_FUNCTIONS.has(name) || !Object.hasOwn(namespace, name)) return;
  if (typeof namespace[name] === "function") {
    throw refused(
      `function '${name}' is not available (its cost cannot be bounded, or it is not a calculation)`,
    );
  }
}

function refused(reason: string): LlmToolsError {
  return new LlmToolsError("TOOL_GUARD_REFUSED", TOOL_NAME, `${TOOL_NAME}: ${reason}`);
}

function quote(text: string): string {
  return text.length > LONGEST_QUOTE ? `${text.slice(0, LONGEST_QUOTE)}...` : text;
}
