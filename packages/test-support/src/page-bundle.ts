import { build, type Rollup } from "vite";

/** What `bundlePage` bundles and which files it returns. */
export interface PageBundleOptions {
  /** The folder of the page's sources. */
  readonly root: string;
  /** The page's entry module, a path. */
  readonly input: string;
  /** The name of the one script the bundle makes. */
  readonly script: string;
  /** The name of the one stylesheet, when the page imports CSS. */
  readonly styles?: string;
  /** Rollup warning codes that mean nothing for this page; they are not printed. */
  readonly quietWarnings?: readonly string[];
}

/** The bundled page: its script and, when asked for, its stylesheet. */
export interface BundledPage {
  readonly script: string;
  readonly styles: string;
}

/**
 * Bundles a browser page with Vite, in memory, into one minified ES2022 script (and one
 * stylesheet). The mode is fixed to production, so the bundle is the same whoever calls it
 * (vitest sets NODE_ENV=test). Used by the pages the tests serve (examples/ai-sdk-ui) and by the
 * console's committed bundle, which its test compares with a fresh one.
 */
export async function bundlePage(options: PageBundleOptions): Promise<BundledPage> {
  const quiet = new Set(options.quietWarnings ?? []);
  const result = await build({
    configFile: false,
    mode: "production",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    envDir: false,
    root: options.root,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      target: "es2022",
      modulePreload: false,
      cssCodeSplit: false,
      rollupOptions: {
        input: options.input,
        output: { entryFileNames: options.script, assetFileNames: options.styles, codeSplitting: false },
        onwarn(warning, warn) {
          if (warning.code === undefined || !quiet.has(warning.code)) warn(warning);
        },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const files = new Map<string, string>();
  for (const output of outputs.flatMap((entry) => entry.output)) {
    files.set(output.fileName, output.type === "chunk" ? output.code : String(output.source));
  }
  const fileNamed = (name: string): string => {
    const file = files.get(name);
    if (file === undefined) {
      throw new Error(
        `bundlePage: expected the bundle of ${options.input} to hold ${name}, found ${[...files.keys()].join(", ") || "no files"}`,
      );
    }
    return file;
  };
  return {
    script: fileNamed(options.script),
    styles: options.styles === undefined ? "" : fileNamed(options.styles),
  };
}
