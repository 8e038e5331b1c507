import { renderValue, writeLog } from "../components/log.js";
import type { LogStepOptions } from "../dsl/route-dsl.js";
import { defineVerb } from "../dsl/verbs.js";
import { RoutekitError } from "../errors/errors.js";
import { logStepTapsOf } from "../exchange/log-step-taps.js";
import { levelEnabled } from "../exchange/logger.js";
import { runtime } from "../exchange/runtime-exchange.js";
import type { Processor } from "../model/exchange.js";
import type { ExpressionInput, LogLevel, PredicateInput } from "../model/route-definition.js";
import { headerRedactor } from "../support/redact-headers.js";

const where = (route: { id: string; from: string }): string => `Route '${route.id || route.from}'`;

export const processVerb = defineVerb({
  record: (recorder, processor: Processor, label?: string) => {
    if (typeof processor !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${where(recorder.route)}: process() expects a function (exchange) => void, found ${typeof processor}`,
      );
    }
    return label === undefined ? { type: "process", processor } : { type: "process", processor, label };
  },
  step: {
    type: "process",
    compile: (definition) => definition.processor,
    shape: { runsUserCode: true },
  },
});

export const toVerb = defineVerb({
  record: (recorder, uri: string) => {
    if (typeof uri !== "string" || uri === "") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${where(recorder.route)}: to() expects an endpoint URI (found ${JSON.stringify(uri)})`,
      );
    }
    return { type: "to", uri };
  },
  step: {
    type: "to",
    compile: (definition, scope) => scope.endpoint(definition.uri).send,
    shape: { endpoints: (definition) => [{ uri: definition.uri, role: "send" }], runsUserCode: false },
  },
});

export const filterVerb = defineVerb({
  record: (recorder, predicate: PredicateInput) => {
    if (typeof predicate !== "string" && typeof predicate !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${where(recorder.route)}: filter() expects a predicate (a string or a function), found ${typeof predicate}`,
      );
    }
    return { type: "filter", predicate, steps: undefined };
  },
  step: {
    type: "filter",
    compile: (definition, scope) => {
      const matches = scope.predicate(definition.predicate);
      // Without a block, `.filter(p)` guards the rest of its block.
      const block =
        definition.steps === undefined
          ? scope.restOfBlock()
          : scope.compileSteps(definition.steps, scope.label);
      return (exchange) => (matches(exchange) ? block(exchange) : undefined);
    },
    shape: {
      // Without a block, `.filter(p)` guards the rest of its block.
      takesRestOfBlock: (definition) => definition.steps === undefined,
      blocks: (definition) =>
        definition.steps === undefined
          ? []
          : [{ name: "steps", suffix: "", options: {}, steps: definition.steps }],
      runsUserCode: false,
    },
  },
});

export const stopVerb = defineVerb({
  record: () => ({ type: "stop" }),
  step: {
    type: "stop",
    compile: () => (exchange) => {
      runtime(exchange).stopped = true;
    },
    shape: { runsUserCode: false },
  },
});

const LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "off"];

export const logVerb = defineVerb({
  record: (recorder, message: ExpressionInput, options?: LogLevel | LogStepOptions) => {
    const settings = typeof options === "string" ? { level: options } : (options ?? {});
    const level = settings.level ?? "info";
    if (!LEVELS.includes(level)) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${where(recorder.route)}: log() level must be one of ${LEVELS.join(", ")} (found '${String(level)}')`,
      );
    }
    return settings.logger === undefined
      ? { type: "log", message, level }
      : { type: "log", message, level, logger: settings.logger };
  },
  step: {
    type: "log",
    compile: (definition, scope) => {
      const level = definition.level;
      if (!levelEnabled(level, "trace")) return () => undefined;
      const evaluate = scope.expression(definition.message);
      const logger = scope.context.logger;
      const taps = logStepTapsOf(scope.context);
      const name = definition.logger ?? scope.routeId;
      // The credentials the exchange's headers carry never reach the log (`log("${headers}")`).
      return (exchange) => {
        const message = renderValue(evaluate(exchange), 1000, headerRedactor(exchange.headers));
        writeLog(logger, level, `[${name}] ${message}`);
        for (const tap of taps) tap(exchange, level, message, name);
      };
    },
    shape: { runsUserCode: false },
  },
});
