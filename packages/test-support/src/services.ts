import { existsSync } from "node:fs";
import { connect } from "node:net";
import { recordSkip } from "./skip-record.js";

/** True when the run is CI's: every service and browser test must then run, or fail. */
export function requiredByCi(): boolean {
  return process.env.CI === "true";
}

/**
 * What a test file does when something it needs is not there. With `CI=true` it throws, so the
 * file fails naming what is missing and how to start it; otherwise it prints one line saying so,
 * records the skip for the count printed at the end of the run, and returns true (skip).
 *
 * `missing` names what is absent and where ("RabbitMQ on 127.0.0.1:5672"); `start` says how to
 * start it; `cause` is the probe's error, when there was one.
 */
export function skipForMissing(missing: string, start: string, cause?: unknown): true {
  const why = cause === undefined ? "" : ` (${String(cause)})`;
  if (requiredByCi()) {
    throw new Error(`${missing} is not there and CI=true requires it${why}; start it with ${start}`);
  }
  console.warn(`tests skipped: no ${missing} — start it with ${start}`);
  recordSkip(missing);
  return true;
}

/** Where the browser tests find Chromium: as the distribution installs it, or `$CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when Chromium is installed at `path`; false (a recorded skip) or, with CI=true, a throw. */
export function browserAvailable(path: string = CHROMIUM_PATH): boolean {
  if (existsSync(path)) return true;
  skipForMissing(`Chromium at ${path}`, "`apt-get install chromium` (.ci/run does)");
  return false;
}

/** The services the tests use, on this machine's loopback. */
export const SERVICE_PORTS = { RabbitMQ: 5672, Redis: 6379, PostgreSQL: 5432 } as const;

export type ServiceName = keyof typeof SERVICE_PORTS;

const START: Record<ServiceName, string> = {
  RabbitMQ: "`bash .ci/start-rabbitmq.sh`",
  Redis: "`bash .ci/start-services.sh`",
  PostgreSQL: "`bash .ci/start-services.sh`",
};

/** How to start a service, for messages. */
export function howToStart(service: ServiceName): string {
  return START[service];
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The services of `names` that do not answer on 127.0.0.1, as "<name> on 127.0.0.1:<port>". */
export async function missingServices(names: ReadonlyArray<ServiceName>): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    if (!(await listening(SERVICE_PORTS[name]))) missing.push(`${name} on 127.0.0.1:${SERVICE_PORTS[name]}`);
  }
  return missing;
}

/**
 * True (skip) when any of `names` does not answer: one line and a recorded skip, or with
 * `CI=true` a throw naming them all. False when every one answers.
 */
export async function servicesMissing(names: ReadonlyArray<ServiceName>): Promise<boolean> {
  const missing = await missingServices(names);
  if (missing.length === 0) return false;
  const start = [...new Set(names.map((name) => START[name]))].join(" and ");
  return skipForMissing(missing.join(", "), start);
}
