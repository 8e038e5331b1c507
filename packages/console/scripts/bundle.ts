// Builds the console's page (web/) into assets/console.js and assets/console.css with Vite.
// `pnpm --filter @routekit/console bundle` writes them; `bundleAssets()` returns them without
// writing, which is how the test checks that the committed files are the bundle of the sources.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { bundlePage } from "@routekit/test-support/page-bundle";

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
  const { script, styles } = await bundlePage({
    root: `${packageRoot}web`,
    input: `${packageRoot}web/main.ts`,
    script: "console.js",
    styles: "console.css",
  });
  return { "console.js": `${BANNER}\n${script}`, "console.css": styles };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleAssets();
  for (const [name, content] of Object.entries(files)) {
    await writeFile(`${packageRoot}assets/${name}`, content);
    console.log(`assets/${name}: ${content.length} bytes`);
  }
}
