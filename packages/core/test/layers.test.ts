import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The core's folders are layers: these tests read the sources' relative imports (type-only ones
// included) and check that they go one way and never form a cycle.

const source = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const importPattern =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^"';]*?from\s+"(\.[^"]+)"|import\s+"(\.[^"]+)"|declare module\s+"(\.[^"]+)"/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

/** Each source file (relative to src) with the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(source)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(importPattern)].map((match) => {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      return relative(source, resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
    });
    graph.set(relative(source, file), targets);
  }
  return graph;
}

const layerOf = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : "(root)");

describe("the core's layers", () => {
  const graph = importGraph();

  it("reads a graph of the whole source tree", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("runtime/prepare-routes.ts")).toContain("compile/compile.ts");
  });

  it("has no import cycle among files, type-only imports included", () => {
    const state = new Map<string, "visiting" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "visiting");
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("keeps the DSL out of the model, the compiler, the runtime and the components", () => {
    const lowerLayers = new Set([
      "model",
      "compile",
      "runtime",
      "components",
      "errors",
      "expressions",
      "budget",
      "support",
    ]);
    const wrongWay = [...graph]
      .filter(([file]) => lowerLayers.has(layerOf(file)))
      .flatMap(([file, targets]) =>
        targets.filter((target) => layerOf(target) === "dsl").map((target) => `${file} -> ${target}`),
      );
    expect(wrongWay).toEqual([]);
  });

  it("keeps the model free of every other layer but the small shared helpers", () => {
    const outside = [...graph]
      .filter(([file]) => layerOf(file) === "model")
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => layerOf(target) !== "model" && layerOf(target) !== "support")
          .map((target) => `${file} -> ${target}`),
      );
    expect(outside).toEqual([]);
  });
});
