import { type Logger, levelEnabled } from "../exchange/logger.js";
import type { Exchange } from "../model/exchange.js";
import type { LogLevel } from "../model/route-definition.js";
import { headerRedactor, redactHeaders, redactValue } from "../support/redact-headers.js";
import { defineComponent } from "./component.js";

/** Characters past the cut a redaction looks at: a header secret (1024 at most) in its longest encoding. */
const REDACTION_MARGIN = 8192;

/**
 * Renders a value for a log line: strings as they are, other values as compact JSON; `redact`
 * runs before the text is cut at `maxChars` (on a few KB past it), so a cut never leaves part of
 * a secret.
 */
export function renderValue(value: unknown, maxChars = 1000, redact?: (text: string) => string): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (value instanceof Uint8Array) text = `<${value.byteLength} bytes>`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  const length = text.length;
  // Redacted past the cut by the longest form of a secret it may hold, never over the whole text.
  if (redact !== undefined) text = redact(text.slice(0, maxChars + REDACTION_MARGIN));
  return length > maxChars ? `${text.slice(0, maxChars)}... (${length} chars)` : text;
}

/** Writes a line to the logger at a level. */
export function writeLog(logger: Logger, level: LogLevel, line: string): void {
  if (level !== "off") logger[level](line);
}

/** `log:name?level=info&showHeaders=true` — logs each exchange; `level=off` costs nothing. */
export const logComponent = defineComponent({
  scheme: "log",
  traits: { inProcess: true, messagingSystem: "routekit", traced: false },
  options: {
    level: { type: "enum", values: ["trace", "debug", "info", "warn", "error", "off"], default: "info" },
    showBody: { type: "boolean", default: true },
    showHeaders: { type: "boolean", default: false },
    showProperties: { type: "boolean", default: false },
    showAll: { type: "boolean", default: false },
    maxChars: { type: "integer", default: 1000, min: 10 },
  },
  createEndpoint(address, context) {
    const options = address.options;
    const logger = context.logger;
    const level = options.level as LogLevel;
    const name = address.path === "" ? "log" : address.path;
    if (level === "off") return { uri: address.uri, send() {} };
    // Credentials never reach the log: headers named like one under any component's naming read
    // `[redacted]`, and the values they carry are redacted from everything else on the line.
    const describe = (exchange: Exchange): string => {
      const parts = [`Id: ${exchange.id}`];
      const redact = headerRedactor(exchange.headers);
      const show = (value: unknown): string => renderValue(value, options.maxChars, redact);
      if (options.showAll || options.showHeaders)
        parts.push(`Headers: ${show(redactHeaders(exchange.headers))}`);
      if (options.showAll || options.showProperties)
        parts.push(`Properties: ${show(redactValue(exchange.properties, redact))}`);
      if (options.showAll || options.showBody) parts.push(`Body: ${show(exchange.body)}`);
      return `[${name}] Exchange[${parts.join(", ")}]`;
    };
    return {
      uri: address.uri,
      send(exchange) {
        if (levelEnabled(level, "trace")) writeLog(logger, level, describe(exchange));
      },
    };
  },
});
