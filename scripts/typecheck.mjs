// Type-checks the whole workspace in two steps:
//   1. `tsc -b` checks every package's sources once and emits their declarations (the same
//      compilation users receive), incrementally: an unchanged package is not checked again.
//   2. Each package's tests, the examples and the benchmarks are checked under their own
//      tsconfig.json, with every package referenced as a built project: an import of a sibling
//      package (or of the package's own src/) reads the declarations step 1 emitted instead of
//      checking that package's sources again in every program. A DSL verb is still typed only
//      where its package is imported. These programs are incremental too; their configurations
//      and build-info files live in node_modules/.typecheck (generated, never committed).
// `pnpm test` needs none of this: vitest's type tests resolve sibling packages to their sources.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const programs = [
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
  "packages/test-support",
  "examples",
  "examples/ai-sdk-ui/page",
  "bench",
];
const generated = join(root, "node_modules/.typecheck");

/** The build configurations `tsc -b` builds (the root tsconfig.json's references). */
function builtProjects() {
  const { references } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
  return references.map((reference) => ({ path: join(root, reference.path) }));
}

/** Writes the configuration that checks `program` against the built declarations; returns its path. */
function configurationFor(program, references) {
  const name = program.replaceAll("/", "-");
  const path = join(generated, `${name}.json`);
  const configuration = {
    extends: join(root, program, "tsconfig.json"),
    compilerOptions: { incremental: true, tsBuildInfoFile: join(generated, `${name}.tsbuildinfo`) },
    references,
  };
  writeFileSync(path, `${JSON.stringify(configuration, null, 2)}\n`);
  return path;
}

function tsc(args, label) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${root}node_modules/typescript/bin/tsc`, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ label, code, output }));
  });
}

mkdirSync(generated, { recursive: true });
const results = [await tsc(["-b"], "tsc -b (every package's sources)")];
const references = builtProjects();
// Two at a time: the machines this runs on have two cores.
const queue = [...programs];
await Promise.all(
  [0, 1].map(async () => {
    for (let program = queue.shift(); program; program = queue.shift()) {
      results.push(await tsc(["-p", configurationFor(program, references)], `${program} (tests)`));
    }
  }),
);
let failed = 0;
for (const { label, code, output } of results) {
  if (code === 0) continue;
  failed += 1;
  process.stdout.write(`${label} failed:\n${output}\n`);
}
if (failed > 0) process.exit(1);
console.log(`typecheck: ${results.length} programs, no errors`);
