import { readFile } from "node:fs/promises";

/** The page's files, built from `web/` and shipped in the package's `assets/` folder. */
export const ASSETS: Readonly<Record<string, string>> = {
  "/assets/console.js": "text/javascript; charset=utf-8",
  "/assets/console.css": "text/css; charset=utf-8",
};

const cache = new Map<string, Buffer>();

/** Reads an asset once (from `assets/` beside `src/` or `dist/`) and keeps it. */
export async function readAsset(path: string): Promise<Buffer> {
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  const content = await readFile(new URL(`..${path}`, import.meta.url));
  cache.set(path, content);
  return content;
}
