import { type ChildProcess, fork } from "node:child_process";
import { type FSWatcher, watch } from "node:fs";
import { createServer } from "node:net";
import { dirname, extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { GenerationOrder, GenerationReport } from "./generation.js";

const WATCHED = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".json"]);
const STOP_TIMEOUT_MS = 30_000;

/** A generation's process and the reports it sent. */
interface Generation {
  readonly child: ChildProcess;
  next(type: GenerationReport["type"] | "exit"): Promise<GenerationReport | undefined>;
}

function log(line: string): void {
  process.stderr.write(`routekit: ${line}\n`);
}

/** A free port on 127.0.0.1, chosen once so that the console keeps its URL across reloads. */
function freePort(): Promise<number> {
  return new Promise((resolveFree, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolveFree(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

function spawnGeneration(file: string, consolePort: number | undefined): Generation {
  const bin = fileURLToPath(new URL("../bin/routekit.js", import.meta.url));
  const built = fileURLToPath(new URL("./run.js", import.meta.url));
  // From sources the bin registers tsx; a built package runs its own dist/run.js.
  const entry = import.meta.url.endsWith(".ts") ? bin : built;
  const args = ["__generation", file, ...(consolePort === undefined ? [] : [String(consolePort)])];
  const child = fork(entry, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const reports: GenerationReport[] = [];
  const waiting: Array<() => void> = [];
  let exited = false;
  const wake = (): void => {
    for (const resume of waiting.splice(0)) resume();
  };
  child.on("message", (report: GenerationReport) => {
    reports.push(report);
    wake();
  });
  child.once("exit", () => {
    exited = true;
    wake();
  });
  return {
    child,
    async next(type) {
      for (;;) {
        const index = reports.findIndex(
          (report) => type !== "exit" && (report.type === type || report.type === "failed"),
        );
        if (index >= 0) return reports.splice(index, 1)[0];
        if (exited) return undefined;
        await new Promise<void>((resume) => waiting.push(resume));
      }
    },
  };
}

function order(generation: Generation, message: GenerationOrder): void {
  if (generation.child.connected) generation.child.send(message);
}

/**
 * `routekit run --watch` and `routekit dev`: runs the routes in a child process and, when a file
 * of the routes' folder changes, loads them again in a new one. The running routes are stopped
 * (gracefully: their exchanges in flight finish) only once the new module has loaded; a module
 * that fails to load leaves them running, and the error says where.
 */
export async function supervise(file: string, withConsole: { port: number } | false): Promise<number> {
  const path = resolve(file);
  const consolePort =
    withConsole === false ? undefined : withConsole.port === 0 ? await freePort() : withConsole.port;
  let current: Generation | undefined;
  let reloading: Promise<void> = Promise.resolve();
  let pending = false;

  const load = async (): Promise<{ generation: Generation; summary: string } | undefined> => {
    const next = spawnGeneration(path, consolePort);
    const loaded = await next.next("loaded");
    if (loaded?.type === "loaded") return { generation: next, summary: loaded.summary };
    const reason =
      loaded?.type === "failed" ? loaded.message : "the process ended before it loaded the routes";
    log(
      `${current === undefined ? "could not load the routes" : "reload failed; the running routes stay"}: ${reason}`,
    );
    next.child.kill();
    return undefined;
  };
  const stop = async (generation: Generation): Promise<void> => {
    order(generation, { type: "stop", timeoutMs: STOP_TIMEOUT_MS });
    const stopped = await generation.next("stopped");
    if (stopped?.type === "stopped") log(stopped.report);
    await generation.next("exit");
  };
  const start = async (generation: Generation, summary: string): Promise<boolean> => {
    order(generation, { type: "start" });
    const started = await generation.next("started");
    if (started?.type !== "started") {
      log(`the routes did not start: ${started?.type === "failed" ? started.message : "the process ended"}`);
      return false;
    }
    log(`running ${summary}`);
    if (started.consoleUrl !== undefined) log(`console: ${started.consoleUrl}`);
    return true;
  };

  const first = await load();
  if (first === undefined) return 1;
  if (!(await start(first.generation, first.summary))) return 1;
  current = first.generation;

  const reload = async (): Promise<void> => {
    pending = false;
    const next = await load();
    if (next === undefined || current === undefined) return;
    await stop(current);
    current = (await start(next.generation, next.summary)) ? next.generation : undefined;
    if (current !== undefined) log("reloaded");
  };
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dirname(path), { recursive: true }, (_event, name) => {
    if (name === null || name.includes("node_modules") || !WATCHED.has(extname(name))) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      if (pending) return;
      pending = true;
      reloading = reloading.then(reload);
    }, 150);
  });
  log(`watching ${dirname(path)} for changes`);

  await new Promise<void>((resolveSignal) => {
    process.once("SIGINT", resolveSignal);
    process.once("SIGTERM", resolveSignal);
  });
  watcher.close();
  if (timer !== undefined) clearTimeout(timer);
  await reloading;
  if (current !== undefined) await stop(current);
  return 0;
}
