/**
 * The bootstrap script of a budget worker, run with `new Worker(source, { eval: true })`: it is
 * plain JavaScript, so it needs no file of its own in the build and no TypeScript loader. It
 * imports task modules by file URL, imports the modules listed in `workerData.preload`, says
 * "ready", then answers one job per message.
 *
 * A `.ts` task module is always imported through tsx's loader hooks, whatever the Node version: tsx
 * maps the `.js`-style relative imports of TypeScript sources to their `.ts` files, which Node's own
 * type stripping (Node 22.18 and later) does not. The loader is the one next to routekit
 * (`workerData.typescriptLoader`) or else the one the task module's own project resolves. With no
 * tsx anywhere, Node is left to load the file itself (type stripping), and a failure says so.
 *
 *
 * - in: `{ id, module, exportName, input, maxOutputBytes }`
 * - out: `{ id, loading: true }` before a module's first import and `{ id, loaded: true }` after,
 *   then one of `{ id, result }`, `{ id, outputBytes }` (over the limit) or `{ id, error }`.
 */
export const BUDGET_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");
const modules = new Map();
let typescript;

function findTypeScriptLoader(url) {
  if (workerData.typescriptLoader) return workerData.typescriptLoader;
  try {
    const api = createRequire(url).resolve("tsx/esm/api");
    return pathToFileURL(api.replace(/\\.cjs$/, ".mjs")).href;
  } catch {
    return undefined;
  }
}

async function importTypeScript(url) {
  if (typescript === undefined) {
    const loader = findTypeScriptLoader(url);
    typescript = loader === undefined ? Promise.resolve(false) : import(loader).then((api) => {
      api.register();
      return true;
    });
  }
  if (await typescript) return import(url);
  try {
    return await import(url);
  } catch (error) {
    const reason = error && typeof error.message === "string" ? error.message : String(error);
    throw new Error(
      "the task module " + url + " is TypeScript source, no TypeScript loader (tsx) was found next to routekit " +
        "or the module, and Node could not load it itself (" + reason + "); install tsx or run the compiled .js files",
    );
  }
}

function load(url) {
  let loading = modules.get(url);
  if (loading === undefined) {
    loading = url.endsWith(".ts") ? importTypeScript(url) : import(url);
    modules.set(url, loading);
  }
  return loading;
}

function byteSize(value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, "utf8");
}

function describeError(error) {
  if (error === null || typeof error !== "object") {
    return { name: "Error", message: String(error), code: undefined, details: {} };
  }
  const details = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "code" || key === "name" || key === "message") continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") details[key] = value;
  }
  return {
    name: typeof error.name === "string" ? error.name : "Error",
    message: typeof error.message === "string" ? error.message : String(error),
    code: typeof error.code === "string" ? error.code : undefined,
    details,
  };
}

async function run(job) {
  try {
    if (!modules.has(job.module)) {
      parentPort.postMessage({ id: job.id, loading: true });
      await load(job.module);
      parentPort.postMessage({ id: job.id, loaded: true });
    }
    const module = await load(job.module);
    const task = module[job.exportName];
    if (typeof task !== "function") {
      throw new TypeError("the module " + job.module + " exports no function named '" + job.exportName + "'");
    }
    const result = await task(job.input, { maxOutputBytes: job.maxOutputBytes });
    const outputBytes = byteSize(result);
    if (outputBytes > job.maxOutputBytes) parentPort.postMessage({ id: job.id, outputBytes });
    else parentPort.postMessage({ id: job.id, result });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: describeError(error) });
  }
}

parentPort.on("message", (job) => {
  void run(job);
});
(async () => {
  for (const url of workerData.preload) {
    try {
      await load(url);
    } catch {
      modules.delete(url);
    }
  }
  parentPort.postMessage({ ready: true });
})();
`;
