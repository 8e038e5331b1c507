import { stepShape } from "../compile/step-compilers.js";
import { messageOf } from "../errors/errors.js";
import type {
  BlockDescription,
  ContextDescription,
  EndpointUse,
  JsonValue,
  RouteDescription,
  RouteEdge,
  StepDescription,
} from "../model/description.js";
import { describeStep, type RouteDefinition } from "../model/route-definition.js";
import type { StepDefinition } from "../model/step-definition.js";
import { REDACTED } from "../support/redact-secrets.js";
import { redactUri } from "../support/redact-uri.js";
import { isSecretHeader } from "../support/secret-names.js";
import { toJsonObject, toJsonValue } from "./describe-values.js";

/** A route as `describeContext` reads it (a `RouteRuntime`; `completed` and `failed` when it counts them). */
export interface DescribedRoute {
  readonly definition: RouteDefinition;
  readonly state: "stopped" | "started";
  readonly inflight: number;
  readonly completed?: number;
  readonly failed?: number;
}

/** What `describeContext` needs of a context. */
export interface DescribedContext {
  readonly name: string;
  readonly state: ContextDescription["state"];
  readonly routes: Iterable<DescribedRoute>;
  aspectHandler(name: string): { describe?(aspect: unknown): unknown } | undefined;
}

/** Fields of step definitions that hold nested blocks: described as blocks, not as options. */
const BLOCK_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "steps",
  "branches",
  "otherwise",
  "catches",
  "finally",
  "fallback",
]);

/** The whole context as JSON-serialisable data (see `ContextDescription`). */
export function describeContext(context: DescribedContext): ContextDescription {
  const routes = [...context.routes].map((route) => describeRoute(route, context));
  return { name: context.name, state: context.state, routes, edges: edgesBetween(routes) };
}

function describeRoute(route: DescribedRoute, context: DescribedContext): RouteDescription {
  const definition = route.definition;
  const endpoints: EndpointUse[] = [
    { uri: redactUri(definition.from), direction: "in", step: null, dynamic: false },
  ];
  const steps = describeSteps(definition.steps, "", endpoints);
  const handler = definition.errorHandling.errorHandler;
  if (handler?.deadLetterUri !== undefined) noteUse(endpoints, handler.deadLetterUri, "errorHandler");
  return {
    id: definition.id,
    from: redactUri(definition.from),
    description: definition.description ?? null,
    state: route.state,
    autoStart: definition.autoStart,
    steps,
    errorHandling: {
      onException: definition.errorHandling.onException.map((clause, index) => {
        const path = `onException[route ${index}]`;
        return {
          path,
          options: toJsonObject(clause as unknown as Record<string, unknown>, undefined, 0, BLOCK_FIELDS),
          steps: describeSteps(clause.steps ?? [], `${path} > `, endpoints),
        };
      }),
      errorHandler: handler === undefined ? null : toJsonObject(handler as Record<string, unknown>),
    },
    endpoints,
    aspects: describeAspects(definition, context),
    counters: {
      inflight: route.inflight,
      completed: route.completed ?? 0,
      failed: route.failed ?? 0,
    },
  };
}

/** Steps with the labels and paths the compiler gives them (`prefix` is the enclosing block's). */
function describeSteps(
  steps: readonly StepDefinition[],
  prefix: string,
  uses: EndpointUse[],
): StepDescription[] {
  const described: StepDescription[] = [];
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    const label = describeStep(step, index);
    const path = prefix + label;
    // The shape the step's verb declares; a step no installed verb compiles has none.
    const shape = stepShape(step.type);
    for (const endpoint of shape?.endpoints?.(step) ?? []) {
      noteUse(uses, endpoint.uri, path, endpoint.role === "template");
    }
    const blocks = (shape?.blocks?.(step) ?? []).map((nested) =>
      block(nested.name, path + nested.suffix, toJsonObject(nested.options), nested.steps, uses),
    );
    const rest = shape?.takesRestOfBlock?.(step) === true;
    if (rest) blocks.push(block("rest of block", path, {}, steps.slice(index + 1), uses));
    described.push({
      type: step.type,
      label,
      path,
      options: stepOptions(step),
      blocks,
    });
    if (rest) break;
  }
  return described;
}

function block(
  name: string,
  path: string,
  options: BlockDescription["options"],
  steps: readonly StepDefinition[],
  uses: EndpointUse[],
): BlockDescription {
  return { name, path, options, steps: describeSteps(steps, `${path} > `, uses) };
}

function noteUse(uses: EndpointUse[], uri: string, step: string, dynamic = false): void {
  uses.push({ uri: redactUri(uri), direction: "out", step, dynamic });
}

/** What each aspect's handler describes; an aspect without a handler's `describe` as plain data. */
function describeAspects(
  definition: RouteDefinition,
  context: DescribedContext,
): { [name: string]: JsonValue } {
  const aspects: { [name: string]: JsonValue } = {};
  for (const [name, aspect] of Object.entries(definition.aspects)) {
    const handler = context.aspectHandler(name);
    try {
      aspects[name] = toJsonValue(handler?.describe === undefined ? aspect : handler.describe(aspect));
    } catch (error) {
      aspects[name] = { error: `the '${name}' aspect could not be described: ${messageOf(error)}` };
    }
  }
  return aspects;
}

/** `scheme:path` of a URI: two URIs with the same one name the same endpoint. */
function endpointKey(uri: string): string {
  const question = uri.indexOf("?");
  return question === -1 ? uri : uri.slice(0, question);
}

/** A route sends to an endpoint another route (or itself) consumes from. */
function edgesBetween(routes: readonly RouteDescription[]): RouteEdge[] {
  const consumers = new Map<string, string[]>();
  for (const route of routes) {
    const key = endpointKey(route.from);
    consumers.set(key, [...(consumers.get(key) ?? []), route.id]);
  }
  const edges: RouteEdge[] = [];
  for (const route of routes) {
    for (const use of route.endpoints) {
      if (use.direction !== "out" || use.dynamic || use.step === null) continue;
      for (const target of consumers.get(endpointKey(use.uri)) ?? []) {
        edges.push({ from: route.id, to: target, uri: use.uri, step: use.step });
      }
    }
  }
  return edges;
}

/**
 * A step's options as JSON; the value a `setHeader` or `setProperty` step gives a header or
 * property named like a credential (`http.request.header.authorization`) reads `[redacted]`.
 */
function stepOptions(step: StepDefinition): { [name: string]: JsonValue } {
  const options = toJsonObject(step as unknown as Record<string, unknown>, undefined, 0, BLOCK_FIELDS);
  if ((step.type === "setHeader" || step.type === "setProperty") && isSecretHeader(step.name)) {
    options.expression = REDACTED;
  }
  return options;
}
