/**
 * The script of a regex worker, run with `new Worker(source, { eval: true })` so it needs no
 * TypeScript loader (it works the same under vitest, tsx and plain node). It loads re2js from the
 * path in `workerData.re2jsPath`, says "ready", then answers one job per message:
 * `{ id, engine, source, flags, text, group, all, maxMatches }` -> `{ id, values }` or `{ id, error }`.
 * The value selection mirrors collectRe2Values in regex-extract.ts.
 */
export const REGEX_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { RE2JS } = require(workerData.re2jsPath);

function matchesOf(job) {
  if (job.engine === "re2") return RE2JS.compile(job.source, job.flags).matchAll(job.text);
  return job.text.matchAll(new RegExp(job.source, job.flags + "g"));
}

function run(job) {
  const values = [];
  for (const match of matchesOf(job)) {
    const value = typeof job.group === "number" ? match[job.group] : (match.groups || {})[job.group];
    if (value === undefined) continue;
    values.push(value);
    if (!job.all || values.length >= job.maxMatches) break;
  }
  return values;
}

parentPort.on("message", (job) => {
  let reply;
  try {
    reply = { id: job.id, values: run(job) };
  } catch (error) {
    reply = { id: job.id, error: error && error.message ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
`;
