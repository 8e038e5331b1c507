import { definePlugin, type Plugin } from "@routekit/core";
import { type AmqpSettings, createAmqpComponent } from "./amqp-component.js";
import { AmqpError, redactUrl } from "./amqp-error.js";

/** Options of `amqpPlugin`. */
export interface AmqpPluginOptions {
  /** Broker URL (default: the `AMQP_URL` environment variable, else amqp://guest:guest@127.0.0.1:5672). */
  url?: string;
  /** Backoff between reconnection attempts (defaults 100 ms doubling up to 5000 ms). */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** How long starting a consumer waits for the broker before `context.start()` fails (default 10000). */
  connectTimeoutMs?: number;
  /** Prefix of the connection names shown by the broker (default "routekit"). */
  connectionName?: string;
}

const DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672";

/**
 * Installs the `amqp:` component (RabbitMQ) in a context, and a lifecycle hook that lets
 * deliveries settle and closes the connections after the routes stopped.
 */
export function amqpPlugin(options: AmqpPluginOptions = {}): Plugin {
  const settings = resolveSettings(options);
  return definePlugin({
    name: "amqp",
    setup() {
      const component = createAmqpComponent(settings);
      return { components: [component], lifecycle: { stop: (budget) => component.close(budget) } };
    },
  });
}

function resolveSettings(options: AmqpPluginOptions): AmqpSettings {
  if (typeof options !== "object" || options === null) {
    throw invalid("options", "an object", options);
  }
  const url = options.url ?? process.env.AMQP_URL ?? DEFAULT_URL;
  if (typeof url !== "string" || !/^amqps?:\/\/[^\s]+$/i.test(url)) {
    throw invalid("url", "an 'amqp://' or 'amqps://' URL", typeof url === "string" ? redactUrl(url) : url);
  }
  const initialDelayMs = positive("reconnect.initialDelayMs", options.reconnect?.initialDelayMs ?? 100);
  const maxDelayMs = positive(
    "reconnect.maxDelayMs",
    options.reconnect?.maxDelayMs ?? Math.max(5000, initialDelayMs),
  );
  if (maxDelayMs < initialDelayMs) {
    throw invalid(
      "reconnect.maxDelayMs",
      `a value >= reconnect.initialDelayMs (${initialDelayMs})`,
      maxDelayMs,
    );
  }
  const connectionName = options.connectionName ?? "routekit";
  if (typeof connectionName !== "string" || connectionName === "") {
    throw invalid("connectionName", "a non-empty string", connectionName);
  }
  return {
    url,
    reconnect: { initialDelayMs, maxDelayMs },
    connectTimeoutMs: positive("connectTimeoutMs", options.connectTimeoutMs ?? 10_000),
    connectionName,
  };
}

function positive(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw invalid(name, "a positive number of milliseconds", value);
  }
  return value;
}

function invalid(name: string, expected: string, found: unknown): AmqpError {
  const shown = typeof found === "string" ? found : (JSON.stringify(found) ?? String(found));
  return new AmqpError(
    "OPTIONS_INVALID",
    `amqpPlugin: option '${name}' expects ${expected} (found ${shown})`,
  );
}
