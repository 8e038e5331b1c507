import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A core verb declares its method on `CoreVerbs` in its own file. Declarations emitted for the
// published package keep only side-effect imports of such files, so eips/index.ts imports each
// one for its declarations; without it, a project compiling against the built types would not
// see the verb (it would still run). This holds the two together.
const eips = fileURLToPath(new URL("../src/eips", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(folder, entry.name)]
        : [],
  );
}

describe("core verbs' declarations", () => {
  it("every file declaring a method on CoreVerbs is imported for its declarations by eips/index.ts", () => {
    const declaring = sourceFiles(eips)
      .filter((file) => /declare module "(?:\.\.\/)+dsl\/route-dsl\.js"/.test(readFileSync(file, "utf8")))
      .map((file) => `./${relative(eips, file).replace(/\.ts$/, ".js")}`)
      .sort();
    const index = readFileSync(join(eips, "index.ts"), "utf8");
    const imported = [...index.matchAll(/^import "(\.\/[^"]+)";$/gm)].map((match) => match[1]).sort();
    expect(declaring.length).toBeGreaterThan(10);
    expect(imported).toEqual(declaring);
  });
});
