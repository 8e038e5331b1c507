// #region memory-component
import { defineComponent, definePlugin, defineServiceKey, type Plugin, RoutekitError } from "@routekit/core";

/** The stores of one context, by name: `memory:cart` and `memory:cart?operation=get` share one. */
const memoryStores = defineServiceKey("example.memory.stores", () => new Map<string, Map<string, unknown>>());

/**
 * `memory:STORE?operation=put|get|delete&keyHeader=key` — a key-value store kept in the context.
 * `put` stores the body under the key and keeps the body; `get` replaces the body with the stored
 * value (or null); `delete` removes the key and replaces the body with true or false.
 */
export const memoryComponent = defineComponent({
  scheme: "memory",
  options: {
    operation: { type: "enum", values: ["put", "get", "delete"], default: "get" },
    keyHeader: { type: "string", default: "key", description: "the header holding the key" },
  },
  createEndpoint(address, context) {
    const { operation, keyHeader } = address.options;
    if (address.path === "") {
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': memory needs a store name, e.g. 'memory:cart'`,
      );
    }
    const stores = context.service(memoryStores);
    let store = stores.get(address.path);
    if (store === undefined) {
      store = new Map<string, unknown>();
      stores.set(address.path, store);
    }
    const entries = store;
    return {
      uri: address.uri,
      send(exchange) {
        const key = exchange.headers[keyHeader];
        if (typeof key !== "string" || key === "") {
          throw new TypeError(
            `Endpoint '${address.uri}': expected header '${keyHeader}' to hold a non-empty string key, found ${typeof key}`,
          );
        }
        if (operation === "put") entries.set(key, exchange.body);
        else if (operation === "get") exchange.body = entries.get(key) ?? null;
        else exchange.body = entries.delete(key);
      },
    };
  },
});

/** Installs the `memory:` component: `context.use(memoryPlugin())`. */
export function memoryPlugin(): Plugin {
  return definePlugin({ name: "memory", setup: () => ({ components: [memoryComponent] }) });
}
// #endregion memory-component
