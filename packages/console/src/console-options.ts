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
  return new ConsoleError("OPTION_INVALID", `consolePlugin: ${message}`);
}

function count(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`option '${name}' expects an integer from ${min} to ${max}, found ${String(value)}`);
  }
  return value;
}

/** Checks the options and fills in the defaults; a bad value throws naming the option. */
export function resolveConsoleOptions(options: ConsoleOptions = {}): ResolvedConsoleOptions {
  if (typeof options !== "object" || options === null) throw invalid("expects an options object");
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host === "") throw invalid("option 'host' expects an address");
  const token = options.token;
  if (token !== undefined && (typeof token !== "string" || token.length < 8 || token.length > 512)) {
    throw invalid("option 'token' expects a text of 8 to 512 characters");
  }
  if (!LOOPBACK.has(host) && token === undefined) {
    throw invalid(`host '${host}' is not loopback: set a 'token' so only you can use the console`);
  }
  const sizes = options.bufferSizes ?? {};
  const redact = options.redactHeaders ?? [];
  if (!Array.isArray(redact) || redact.some((name) => typeof name !== "string")) {
    throw invalid("option 'redactHeaders' expects an array of header names");
  }
  const record = options.record ?? "while-connected";
  if (record !== "always" && record !== "while-connected") {
    throw invalid(`option 'record' expects "always" or "while-connected", found ${JSON.stringify(record)}`);
  }
  return {
    port: count(options.port, "port", 0, 0, 65_535),
    host,
    token,
    exchanges: count(sizes.exchanges, "bufferSizes.exchanges", 200, 1, 100_000),
    stepsPerExchange: count(sizes.stepsPerExchange, "bufferSizes.stepsPerExchange", 100, 1, 10_000),
    agentRuns: count(sizes.agentRuns, "bufferSizes.agentRuns", 50, 1, 10_000),
    callsPerRun: count(sizes.callsPerRun, "bufferSizes.callsPerRun", 200, 1, 10_000),
    durationSamples: count(sizes.durationSamples, "bufferSizes.durationSamples", 512, 1, 100_000),
    snapshotChars: count(sizes.snapshotChars, "bufferSizes.snapshotChars", 2048, 16, 1_000_000),
    redactHeaders: new Set([...DEFAULT_REDACTED, ...redact.map((name) => name.toLowerCase())]),
    recordPerSecond: count(options.recordPerSecond, "recordPerSecond", 200, 0, 1_000_000),
    partsPerStep: count(sizes.partsPerStep, "bufferSizes.partsPerStep", 20, 0, 10_000),
    record,
  };
}
