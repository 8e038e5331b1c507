import { NoConsumerError, RoutekitError } from "../errors/errors.js";
import type { RouteContext } from "../model/exchange.js";
import { defineServiceKey } from "../model/service-key.js";
import type { RouteProcessor } from "./component.js";
import { defineComponent } from "./component.js";

/** The consumer slot of one direct name, shared by every endpoint URI of that name. */
interface DirectSlot {
  processor: RouteProcessor | undefined;
  owner: string | undefined;
}

/** The consumers of a context's direct: endpoints, by name. */
const directSlots = defineServiceKey("routekit.direct", () => new Map<string, DirectSlot>());

const slotsOf = (context: RouteContext): Map<string, DirectSlot> => context.service(directSlots);

/**
 * `direct:name` — synchronous request-reply: the consumer route runs on the caller's exchange,
 * in the caller's call stack. Sending with no consumer fails with NoConsumerError.
 */
export const directComponent = defineComponent({
  scheme: "direct",
  traits: { inProcess: true, messagingSystem: "routekit", sameExchange: true },
  options: {
    failIfNoConsumers: {
      type: "boolean",
      default: true,
      description: "Fail when no route consumes (else drop the message)",
    },
  },
  createEndpoint(address, context) {
    const name = address.path;
    if (name === "") {
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': direct needs a name, e.g. 'direct:orders'`,
      );
    }
    const slots = slotsOf(context);
    let slot = slots.get(name);
    if (slot === undefined) {
      slot = { processor: undefined, owner: undefined };
      slots.set(name, slot);
    }
    const target = slot;
    const fail = address.options.failIfNoConsumers;
    return {
      uri: address.uri,
      send(exchange) {
        const processor = target.processor;
        if (processor !== undefined) return processor(exchange);
        if (fail) throw new NoConsumerError(address.uri, "no started route consumes from it");
      },
      createConsumer(processor, route) {
        return {
          internal: true,
          start() {
            if (target.owner !== undefined && target.owner !== route.routeId) {
              throw new RoutekitError(
                "ROUTE_INVALID",
                `Route '${route.routeId}' cannot consume from 'direct:${name}': route '${target.owner}' already does (direct allows one consumer)`,
              );
            }
            target.owner = route.routeId;
            target.processor = processor;
          },
          stop() {
            if (target.owner === route.routeId) {
              target.owner = undefined;
              target.processor = undefined;
            }
          },
        };
      },
    };
  },
});
