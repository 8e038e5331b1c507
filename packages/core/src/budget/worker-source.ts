/**
 * The bootstrap script of a budget worker, run with `new Worker(source, { eval: true })`: it is
 * plain JavaScript, so it needs no file of its own in the build and no TypeScript loader. It
 * imports task modules by file URL (a `.ts` module through tsx's loader, whose path is in
 * `workerData.typescriptLoader`, when plain `import()` does not know the extension), imports the
 * modules listed in `workerData.preload`, says "ready", then answers one job per message:
 *
 * - in: `{ id, module, exportName, input, maxOutputBytes }`
 * - out: `{ id, loading: true }` before a module's first import and `{ id, loaded: true }` after,
 *   then one of `{ id, result }`, `{ id, outputBytes }` (over the limit) or `{ id, error }`.
 */
export const BUDGET_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const modules = new Map();
let typescript;

async function importTypeScript(url) {
  try {
    return await import(url);
  } catch (error) {
    if (!error || error.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  }
  if (!workerData.typescriptLoader) {
    throw new Error("the task module " + url + " is TypeScript source and no TypeScript loader (tsx) was found; run the compiled .js files");
  }
  typescript ??= import(workerData.typescriptLoader).then((api) => api.register());
  await typescript;
  return import(url + "?typescript");
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
