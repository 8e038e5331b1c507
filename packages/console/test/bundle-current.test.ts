import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { bundleAssets } from "../scripts/bundle.js";

// The page's bundle is committed (assets/), so the package runs with nothing built, from a fresh
// clone and from its tarball. This keeps it honest: the committed files must be exactly what Vite
// makes of web/ now. When this fails, run `pnpm --filter @routekit/console bundle` and commit.
describe("the committed front-end bundle", () => {
  it("is the bundle of the current web/ sources", { timeout: 120_000 }, async () => {
    const built = await bundleAssets();
    for (const name of ["console.js", "console.css"] as const) {
      const committed = await readFile(new URL(`../assets/${name}`, import.meta.url), "utf8");
      expect(
        committed === built[name],
        `assets/${name} is stale: run pnpm --filter @routekit/console bundle`,
      ).toBe(true);
    }
  });
});
