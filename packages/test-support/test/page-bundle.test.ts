import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePage } from "../src/page-bundle.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "routekit-page-bundle-"));
  await writeFile(join(root, "style.css"), "body { color: teal; }\n");
  await writeFile(join(root, "main.ts"), 'import "./style.css";\ndocument.title = "bundled page";\n');
  await writeFile(join(root, "plain.ts"), 'document.title = "no styles";\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("bundlePage", () => {
  it("returns the page's one script and one stylesheet", { timeout: 60_000 }, async () => {
    const bundled = await bundlePage({
      root,
      input: join(root, "main.ts"),
      script: "page.js",
      styles: "page.css",
    });
    expect(bundled.script).toContain("bundled page");
    expect(bundled.styles).toMatch(/color:\s*teal/);
  });

  it("says which file the bundle lacks and what it holds", { timeout: 60_000 }, async () => {
    const input = join(root, "plain.ts");
    await expect(bundlePage({ root, input, script: "page.js", styles: "page.css" })).rejects.toThrow(
      `bundlePage: expected the bundle of ${input} to hold page.css, found page.js`,
    );
  });
});
