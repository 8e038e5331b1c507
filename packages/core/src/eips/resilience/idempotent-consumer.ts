import {
  checkBoolean,
  checkNumber,
  checkOptionKeys,
  optionError,
  routeSite,
} from "../../dsl/option-checks.js";
import type { ExpressionOf } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { Exchange } from "../../model/exchange.js";
import type { ExpressionInput } from "../../model/route-definition.js";
import type { IdempotentConsumerDefinition } from "../../model/steps/resilience-steps.js";
import {
  createMemoryIdempotentRepository,
  type IdempotentRepository,
} from "./memory-idempotent-repository.js";

/** Property set to true on an exchange the idempotent consumer found to be a duplicate. */
export const IDEMPOTENT_DUPLICATE = "idempotent.duplicate";

/** Options of `idempotentConsumer`. */
export interface IdempotentConsumerOptions {
  /** Where keys are kept; default a bounded in-memory repository per step. */
  repository?: IdempotentRepository;
  /** Drop duplicates (default true); false lets them through, marked with `idempotent.duplicate`. */
  skipDuplicate?: boolean;
  /** Size of the default in-memory repository (least recently used keys go first). Default 1000. */
  maximumSize?: number;
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Lets each key through once: the key is claimed before the rest of the block runs (so a
     * concurrent duplicate is dropped too) and released when processing fails (so a retry can
     * go through). Duplicates skip the rest of the block, like a filter.
     */
    idempotentConsumer(
      key: ExpressionOf<TBody, string | number | null | undefined>,
      options?: IdempotentConsumerOptions,
    ): RouteDsl<TBody>;
  }
}

function isRepository(value: unknown): value is IdempotentRepository {
  if (value === null || typeof value !== "object") return false;
  const candidate = value as Record<string, unknown>;
  return ["add", "contains", "remove"].every((name) => typeof candidate[name] === "function");
}

function then<TValue>(
  value: TValue | Promise<TValue>,
  next: (value: TValue) => void | Promise<void>,
): void | Promise<void> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export const idempotentConsumerVerb = defineVerb({
  record: (
    recorder,
    key: ExpressionInput,
    options?: IdempotentConsumerOptions,
  ): IdempotentConsumerDefinition => {
    const site = routeSite(recorder.route, "idempotentConsumer");
    if (typeof key !== "string" && typeof key !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: idempotentConsumer() expects a key expression like "\${header.orderId}" or a function, found ${key === null ? "null" : typeof key}`,
      );
    }
    const checked = checkOptionKeys<IdempotentConsumerOptions>(site, options, [
      "repository",
      "skipDuplicate",
      "maximumSize",
    ]);
    if (checked.repository !== undefined && !isRepository(checked.repository)) {
      throw optionError(
        site,
        "repository",
        "an IdempotentRepository { add, contains, remove, confirm? }",
        checked.repository,
      );
    }
    const maximumSize = checkNumber(site, "maximumSize", checked.maximumSize, { minimum: 1, integer: true });
    if (maximumSize !== undefined && checked.repository !== undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: idempotentConsumer() option 'maximumSize' sizes the default in-memory repository; ` +
          "it cannot be combined with 'repository'",
      );
    }
    return {
      type: "idempotentConsumer",
      key,
      repository: checked.repository,
      skipDuplicate: checkBoolean(site, "skipDuplicate", checked.skipDuplicate) ?? true,
      maximumSize,
    };
  },
  step: {
    type: "idempotentConsumer",
    compile: (definition, scope) => {
      const { routeId, label } = scope;
      const evaluate = scope.expression(definition.key);
      const repository: IdempotentRepository =
        definition.repository ??
        createMemoryIdempotentRepository({ maximumSize: definition.maximumSize ?? 1000 });
      const skipDuplicate = definition.skipDuplicate;
      const rest = scope.restOfBlock();
      const logger = scope.context.logger;

      const keyOf = (exchange: Exchange): string => {
        const value = evaluate(exchange);
        if (typeof value === "number" && Number.isFinite(value)) return String(value);
        if (typeof value === "string" && value !== "") return value;
        const expression = typeof definition.key === "string" ? `'${definition.key}'` : "(a function)";
        throw new RoutekitError(
          "IDEMPOTENT_KEY_MISSING",
          `Route '${routeId}': ${label} found no key: the key expression ${expression} gave ` +
            `${value === "" ? "an empty string" : value === null ? "null" : typeof value === "number" ? String(value) : typeof value}, ` +
            "expected a non-empty string or a number",
        );
      };

      // After the rest of the block: a failure releases the key, a success confirms it.
      const settle = (exchange: Exchange, key: string): void | Promise<void> => {
        if (exchange.error !== undefined) {
          const error = exchange.error;
          let removed: unknown;
          try {
            removed = repository.remove(key, exchange);
          } catch (removeError) {
            logger.warn(
              `Route '${routeId}': ${label} could not release key '${key}': ${String(removeError)}`,
            );
          }
          if (!(removed instanceof Promise)) return;
          return removed.then(
            () => undefined,
            (removeError: unknown) => {
              logger.warn(
                `Route '${routeId}': ${label} could not release key '${key}': ${String(removeError)}`,
              );
              exchange.error = error;
            },
          );
        }
        return repository.confirm?.(key, exchange);
      };

      const proceed = (exchange: Exchange, key: string, claimed: boolean): void | Promise<void> => {
        if (!claimed) {
          exchange.properties[IDEMPOTENT_DUPLICATE] = true;
          if (skipDuplicate) return;
          return rest(exchange);
        }
        const result = rest(exchange);
        if (result === undefined) return settle(exchange, key);
        return result.then(() => settle(exchange, key));
      };

      return (exchange) => {
        const key = keyOf(exchange);
        return then(repository.add(key, exchange), (claimed) => proceed(exchange, key, claimed));
      };
    },
    shape: {
      takesRestOfBlock: () => true,
      // Its repository is an object of the route's author.
      runsUserCode: true,
    },
  },
});
