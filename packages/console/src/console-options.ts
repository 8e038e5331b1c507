import { checkOptions, type OptionChecks, type OptionsSite } from "@routekit/core/internal";
import { ConsoleError } from "./console-error.js";

/** How much the console keeps in memory; every buffer is a ring that drops its oldest entries. */
export interface ConsoleBufferSizes {
  /** Recent exchanges kept with their step timelines (default 200). */
  exchanges?: number;
  /** Steps kept per exchange timeline; later steps are counted, not kept (default 100). */
  stepsPerExchange?: number;
  /** Recent agent runs (llm step runs) kept (default 50). */
  agentRuns?: number;
  /** Model turns and tool calls kept per agent run (default 200). */
  callsPerRun?: number;
  /**
   * Split parts and multicast copies kept per step of a recorded timeline (default 20); their
   * steps count towards the exchange's `stepsPerExchange`.
   */
  partsPerStep?: number;
  /** Durations kept per route and per step for p50/p99 (default 512). */
  durationSamples?: number;
  /** Characters kept of a body, a header value or a tool argument in a snapshot (default 2048). */
  snapshotChars?: number;
}

/**
 * When the console records step-level detail (step counters, p50/p99, exchange timelines):
 * `"while-connected"` (the default) only while a console page is open, so an installed console
 * with nobody watching adds nothing to a step; `"always"` from the context's start, for a history
 * of exchanges before the page is opened.
 */
export type ConsoleRecordMode = "always" | "while-connected";

/** Options of `consolePlugin`. */
export interface ConsoleOptions {
  /** Port to listen on; 0 (the default) picks a free one (`consoleOf(context).url` tells which). */
  port?: number;
  /** Address to bind; default "127.0.0.1". Any other than loopback requires a `token`. */
  host?: string;
  /**
   * When set, every request must carry it: `Authorization: Bearer <token>`, or `?token=` in the
   * URL (how the page and its event stream pass it). Start and stop need it like everything else.
   */
  token?: string;
  bufferSizes?: ConsoleBufferSizes;
  /**
   * Header names whose values snapshots show as `[redacted]` (case-insensitive, with or without a
   * component's prefix such as `http.header.`), in addition to every header named like a
   * credential (authorization, cookie, set-cookie, x-api-key, `*token*`, `*secret*`, ...) under
   * any component's naming.
   */
  redactHeaders?: readonly string[];
  /**
   * Most exchanges per second recorded as timelines (default 200). Counters count every
   * exchange; under heavier traffic only this many get a timeline, so recording stays cheap.
   */
  recordPerSecond?: number;
  /** When step-level detail is recorded (default "while-connected"; see `ConsoleRecordMode`). */
  record?: ConsoleRecordMode;
}

/** The options with every default filled in. */
export interface ResolvedConsoleOptions {
  readonly port: number;
  readonly host: string;
  readonly token: string | undefined;
  readonly exchanges: number;
  readonly stepsPerExchange: number;
  readonly agentRuns: number;
  readonly callsPerRun: number;
  readonly durationSamples: number;
  readonly snapshotChars: number;
  readonly redactHeaders: ReadonlySet<string>;
  readonly recordPerSecond: number;
  readonly partsPerStep: number;
  readonly record: ConsoleRecordMode;
}

const DEFAULT_REDACTED = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"];
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

function invalid(message: string): ConsoleError {
  return new ConsoleError("OPTION_INVALID", message);
}

const SITE: OptionsSite = { where: "consolePlugin", error: invalid };

/** A count of entries kept, from `min` to `max`. */
function count(fallback: number, min: number, max: number) {
  return { type: "integer", default: fallback, min, max } as const;
}

const OPTION_CHECKS = {
  port: count(0, 0, 65_535),
  host: { type: "string", default: "127.0.0.1", nonEmpty: true, expected: "an address" },
  token: {
    type: "string",
    secret: true,
    pattern: /^[\s\S]{8,512}$/,
    expected: "a text of 8 to 512 characters",
  },
  bufferSizes: {
    type: "object",
    options: {
      exchanges: count(200, 1, 100_000),
      stepsPerExchange: count(100, 1, 10_000),
      agentRuns: count(50, 1, 10_000),
      callsPerRun: count(200, 1, 10_000),
      partsPerStep: count(20, 0, 10_000),
      durationSamples: count(512, 1, 100_000),
      snapshotChars: count(2048, 16, 1_000_000),
    },
  },
  redactHeaders: { type: "list", items: { type: "string" }, expected: "an array of header names" },
  recordPerSecond: count(200, 0, 1_000_000),
  record: { type: "enum", values: ["while-connected", "always"], default: "while-connected" },
} as const satisfies OptionChecks;

/** Checks the options and fills in the defaults; a bad value throws naming the option. */
export function resolveConsoleOptions(options: ConsoleOptions = {}): ResolvedConsoleOptions {
  const checked = checkOptions(OPTION_CHECKS, options, SITE);
  const { host, token } = checked;
  if (!LOOPBACK.has(host) && token === undefined) {
    throw invalid(
      `consolePlugin: host '${host}' is not loopback: set a 'token' so only you can use the console`,
    );
  }
  const sizes = checked.bufferSizes ?? checkOptions(OPTION_CHECKS.bufferSizes.options, {}, SITE);
  return {
    port: checked.port,
    host,
    token,
    ...sizes,
    redactHeaders: new Set([
      ...DEFAULT_REDACTED,
      ...(checked.redactHeaders ?? []).map((name) => name.toLowerCase()),
    ]),
    recordPerSecond: checked.recordPerSecond,
    record: checked.record,
  };
}
