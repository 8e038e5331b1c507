import { defineVerb, type Recorder } from "../dsl/verbs.js";
import { RoutekitError } from "../errors/errors.js";
import type { Exchange } from "../model/exchange.js";
import type { ExpressionInput } from "../model/route-definition.js";
import type { SetBodyDefinition, TransformDefinition } from "../model/steps/message-steps.js";

function checkExpression(recorder: Recorder, verb: string, expression: unknown): ExpressionInput {
  if (typeof expression !== "string" && typeof expression !== "function") {
    const found = expression === null ? "null" : typeof expression;
    const literal = ["number", "boolean", "bigint", "object"].includes(found) ? constantHint(expression) : "";
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${recorder.route.id || recorder.route.from}': ${verb}() expects an expression (a string or a function of the exchange), found ${found}${literal}`,
    );
  }
  return expression as ExpressionInput;
}

/** For a literal value: how to pass it as a constant, e.g. `; for a fixed value write constant(0.1)`. */
function constantHint(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "bigint" ? `${value}n` : JSON.stringify(value);
  } catch {
    text = "value";
  }
  if (text === undefined || text.length > 40) text = "value";
  return `; for a fixed value write constant(${text}) (import { constant } from "@routekit/core")`;
}

function checkName(recorder: Recorder, verb: string, name: unknown): string {
  if (typeof name !== "string" || name === "") {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${recorder.route.id || recorder.route.from}': ${verb}() expects a non-empty name (found ${JSON.stringify(name)})`,
    );
  }
  return name;
}

/** Sets the body from an expression; a promise result is awaited. */
function bodySetter(evaluate: (exchange: Exchange) => unknown) {
  return (exchange: Exchange): void | Promise<void> => {
    const value = evaluate(exchange);
    if (value instanceof Promise) {
      return value.then((resolved) => {
        exchange.body = resolved;
      });
    }
    exchange.body = value;
  };
}

/** `setBody` and `transform`: the same step under two names (Camel's message translation). */
function bodyVerb(verb: "setBody" | "transform") {
  return defineVerb({
    record: (recorder, expression: ExpressionInput): SetBodyDefinition | TransformDefinition => ({
      type: verb,
      expression: checkExpression(recorder, verb, expression),
    }),
    step: {
      type: verb,
      compile: (definition, scope) => bodySetter(scope.expression(definition.expression)),
      shape: { runsUserCode: false },
    },
  });
}

export const setBodyVerb = bodyVerb("setBody");
export const transformVerb = bodyVerb("transform");

export const setHeaderVerb = defineVerb({
  record: (recorder, name: string, expression: ExpressionInput) => ({
    type: "setHeader",
    name: checkName(recorder, "setHeader", name),
    expression: checkExpression(recorder, "setHeader", expression),
  }),
  step: {
    type: "setHeader",
    compile: (definition, scope) => {
      const evaluate = scope.expression(definition.expression);
      const name = definition.name;
      return (exchange) => {
        exchange.headers[name] = evaluate(exchange);
      };
    },
    shape: { runsUserCode: false },
  },
});

export const setPropertyVerb = defineVerb({
  record: (recorder, name: string, expression: ExpressionInput) => ({
    type: "setProperty",
    name: checkName(recorder, "setProperty", name),
    expression: checkExpression(recorder, "setProperty", expression),
  }),
  step: {
    type: "setProperty",
    compile: (definition, scope) => {
      const evaluate = scope.expression(definition.expression);
      const name = definition.name;
      return (exchange) => {
        exchange.properties[name] = evaluate(exchange);
      };
    },
    shape: { runsUserCode: false },
  },
});

export const removeHeaderVerb = defineVerb({
  record: (recorder, name: string) => ({
    type: "removeHeader",
    name: checkName(recorder, "removeHeader", name),
  }),
  step: {
    type: "removeHeader",
    compile: (definition) => {
      const name = definition.name;
      return (exchange) => {
        delete exchange.headers[name];
      };
    },
    shape: { runsUserCode: false },
  },
});
