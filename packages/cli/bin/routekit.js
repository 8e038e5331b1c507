#!/usr/bin/env node
// routekit. Installed from the registry, the package's exports point at dist/ and the built
// command runs. In the repository they point at src/ (packages are developed from source): the
// command then runs its TypeScript sources through tsx, with nothing to build first.
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const fromSource = JSON.stringify(manifest.exports).includes("./src/");
if (fromSource) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/run.ts", import.meta.url).href);
} else {
  await import(new URL("../dist/run.js", import.meta.url).href);
}
