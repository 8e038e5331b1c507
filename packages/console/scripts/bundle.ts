// Builds the console's page (web/) into assets/console.js and assets/console.css with Vite.
// `pnpm --filter @routekit/console bundle` writes them; `bundleAssets()` returns them without
// writing, which is how the test checks that the committed files are the bundle of the sources.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build, type Rollup } from "vite";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

/** What the bundle contains, with the licences of the libraries in it. */
const BANNER =
  "/*! @routekit/console page. Bundled: preact (MIT, Jason Miller), htm (Apache-2.0, Google LLC), " +
  "@dagrejs/dagre and @dagrejs/graphlib (MIT, Chris Pettitt). Sources: packages/console/web. */";

/** The files the bundle writes into assets/, by name. */
export interface BundledAssets {
  readonly "console.js": string;
  readonly "console.css": string;
}

/** Bundles web/main.ts (Preact, htm, dagre and the page's code) and its CSS. */
export async function bundleAssets(): Promise<BundledAssets> {
  const result = await build({
    configFile: false,
    // Fixed, so the bundle is the same whoever calls this (vitest sets NODE_ENV=test).
    mode: "production",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    envDir: false,
    root: `${packageRoot}web`,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      target: "es2022",
      modulePreload: false,
      cssCodeSplit: false,
      rollupOptions: {
        input: `${packageRoot}web/main.ts`,
        output: { entryFileNames: "console.js", assetFileNames: "console.css" },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const files = new Map<string, string>();
  for (const output of outputs.flatMap((entry) => entry.output)) {
    files.set(output.fileName, output.type === "chunk" ? output.code : String(output.source));
  }
  const script = files.get("console.js");
  const styles = files.get("console.css");
  if (script === undefined || styles === undefined) {
    throw new Error(`the bundle lacks console.js or console.css: ${[...files.keys()].join(", ")}`);
  }
  return { "console.js": `${BANNER}\n${script}`, "console.css": styles };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleAssets();
  for (const [name, content] of Object.entries(files)) {
    await writeFile(`${packageRoot}assets/${name}`, content);
    console.log(`assets/${name}: ${content.length} bytes`);
  }
}
