// Builds the console's page (web/) into assets/console.js and assets/console.css with Vite.
// `node scripts/bundle.mjs` writes them; `bundleAssets()` returns them without writing, which is
// how the test checks that the committed files are the bundle of the current sources.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

/** The bundle as { "console.js": text, "console.css": text }. */
export async function bundleAssets() {
  const result = await build({
    configFile: false,
    root: `${packageRoot}web`,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      target: "es2022",
      lib: {
        entry: `${packageRoot}web/main.ts`,
        formats: ["es"],
        fileName: () => "console.js",
        cssFileName: "console",
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((entry) => entry.output);
  const files = {};
  for (const output of outputs) {
    files[output.fileName] = output.type === "chunk" ? output.code : String(output.source);
  }
  if (files["console.js"] === undefined || files["console.css"] === undefined) {
    throw new Error(`the bundle lacks console.js or console.css: ${Object.keys(files).join(", ")}`);
  }
  return { "console.js": files["console.js"], "console.css": files["console.css"] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleAssets();
  for (const [name, content] of Object.entries(files)) {
    await writeFile(`${packageRoot}assets/${name}`, content);
    console.log(`assets/${name}: ${content.length} bytes`);
  }
}
