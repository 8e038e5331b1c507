// Bundles the JavaScript each package publishes. `tsc -b` writes the declarations (dist/**/*.d.ts,
// the types users compile against); this script then writes the code: one ES module per entry
// point in dist/, the modules two entries share in chunks beside them (so `@routekit/core` and
// `@routekit/core/internal` share one instance of every module), every dependency left external,
// with source maps naming the files under src/ that the tarball ships (and holding no copy of them).
//
// The entry points of a package are
//   - every `import` target of its publishConfig.exports (dist/X.js is built from src/X.ts);
//   - every dist/*.js file its `bin` scripts import (dist/cli/run.js from src/cli/run.ts);
//   - every module a source file names with `new URL("./name.js", import.meta.url)` (the task
//     modules budget workers load by file): built as dist/name.js, beside the chunk holding the
//     code that names it, so the URL resolves in the bundle as it does in src/.
// Usage: node scripts/bundle-packages.mjs [package directory...] (default: every package)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const WORKER_MODULE = /new URL\(\s*["']\.\/([\w.-]+)\.js["']\s*,\s*import\.meta\.url\s*\)/g;

/** The source file that dist/<name>.js is built from. */
function sourceOf(directory, distPath) {
  const source = join(directory, distPath.replace(/^\.?\/?dist\//, "src/").replace(/\.js$/, ".ts"));
  if (!existsSync(source)) throw new Error(`${directory}: ${distPath} has no source ${source}`);
  return source;
}

function sourceFiles(directory) {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The entry points of one package: output name (without .js) to source file. */
export function entryPoints(directory) {
  const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
  const entries = {};
  const add = (distPath) => {
    entries[distPath.replace(/^\.?\/?dist\//, "").replace(/\.js$/, "")] = sourceOf(directory, distPath);
  };
  for (const target of Object.values(manifest.publishConfig?.exports ?? {})) add(target.import);
  for (const bin of Object.values(manifest.bin ?? {})) {
    const text = readFileSync(join(directory, bin), "utf8");
    for (const match of text.matchAll(/\.\.\/(dist\/[\w./-]+\.js)/g)) add(match[1]);
  }
  for (const file of sourceFiles(join(directory, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(WORKER_MODULE)) {
      const source = join(dirname(file), `${match[1]}.ts`);
      // A name with no source beside it is an example in a comment; a real one missing from the
      // bundle fails the packaging test, which checks every such URL in dist/.
      if (!existsSync(source)) continue;
      if (entries[match[1]] !== undefined && entries[match[1]] !== source) {
        throw new Error(`${directory}: two worker modules are named ${match[1]}.js`);
      }
      entries[match[1]] = source;
    }
  }
  return entries;
}

const builtins = new Set(builtinModules);

/** Anything not a file of the package itself stays an import: dependencies and Node's modules. */
function external(id) {
  if (id.startsWith("node:") || builtins.has(id)) return true;
  return !id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\0");
}

export async function bundlePackage(directory) {
  const input = entryPoints(directory);
  // tsc writes only declarations to dist/: any code there is an earlier bundle's (chunk names change).
  const dist = join(directory, "dist");
  if (existsSync(dist)) {
    for (const name of readdirSync(dist, { recursive: true })) {
      if (/\.js(\.map)?$/.test(name)) rmSync(join(dist, name));
    }
  }
  const results = await build({
    configFile: false,
    envDir: false,
    root: directory,
    logLevel: "warn",
    publicDir: false,
    build: {
      ssr: true,
      outDir: "dist",
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      sourcemap: true,
      target: "node20",
      reportCompressedSize: false,
      rolldownOptions: {
        input,
        external,
        output: {
          format: "es",
          entryFileNames: "[name].js",
          chunkFileNames: "[name]-[hash].js",
        },
      },
    },
  });
  // The tarball ships src/, which the maps name: the maps need no copy of it.
  for (const result of [results].flat()) {
    for (const chunk of result.output) {
      if (!chunk.fileName.endsWith(".js.map")) continue;
      const path = join(directory, "dist", chunk.fileName);
      const { sourcesContent, ...map } = JSON.parse(readFileSync(path, "utf8"));
      writeFileSync(path, JSON.stringify(map));
    }
  }
  return Object.keys(input);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const requested = process.argv.slice(2);
  const directories =
    requested.length > 0
      ? requested.map((path) => join(process.cwd(), path))
      : readdirSync(join(root, "packages"))
          .map((name) => join(root, "packages", name))
          .filter((path) => existsSync(join(path, "package.json")))
          // A private package (the tests' own support) has nothing to bundle.
          .filter((path) => JSON.parse(readFileSync(join(path, "package.json"), "utf8")).private !== true);
  for (const directory of directories) {
    const names = await bundlePackage(directory);
    console.log(`bundled ${relative(root, directory) || basename(directory)}: ${names.join(", ")}`);
  }
}
