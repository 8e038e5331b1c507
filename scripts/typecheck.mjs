// Type-checks the whole workspace: first `tsc -b` builds every package's publishable output
// (src only, the same compilation users receive), then each package, the examples and the
// benchmarks are checked with their tests under their own tsconfig.json, which resolves sibling
// packages to their sources, so nothing needs to be built first and a DSL verb is typed only
// where its package is imported.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const projects = [
  "packages/core",
  "packages/llm",
  "packages/llm-tools",
  "packages/amqp",
  "packages/http",
  "packages/redis",
  "packages/postgres",
  "packages/otel",
  "packages/mcp",
  "packages/console",
  "packages/console/web",
  "packages/cli",
  "examples",
  "examples/ai-sdk-ui/page",
  "bench",
];

function tsc(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${root}node_modules/typescript/bin/tsc`, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ args, code, output }));
  });
}

const results = [await tsc(["-b"])];
// Two at a time: the machines this runs on have two cores.
const queue = [...projects];
await Promise.all(
  [0, 1].map(async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      results.push(await tsc(["-p", project]));
    }
  }),
);
let failed = 0;
for (const { args, code, output } of results) {
  if (code === 0) continue;
  failed += 1;
  process.stdout.write(`tsc ${args.join(" ")} failed:\n${output}\n`);
}
if (failed > 0) process.exit(1);
console.log(`typecheck: ${results.length} programs, no errors`);
