import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { layerMatrix } from "./layer-matrix.js";

// The core's folders are layers: these tests read the sources' relative imports (type-only ones
// included) and check that no two files form a cycle, that every folder imports only what its row
// of the layer matrix allows, that the matrix itself points only downwards, and that
// docs/architecture.md's layer table is the matrix.

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

  it("has a row in the matrix for every folder of the source tree", () => {
    const folders = [...new Set([...graph.keys()].map(layerOf))].sort();
    expect(folders).toEqual(layerMatrix.map((row) => row.folder).sort());
  });

  it("lets each folder import only the folders below it in the matrix: no backward arrow", () => {
    const position = new Map(layerMatrix.map((row, index) => [row.folder, index]));
    const backward = layerMatrix.flatMap((row) =>
      row.mayImport
        .filter((target) => (position.get(target) ?? Number.POSITIVE_INFINITY) >= position.get(row.folder)!)
        .map((target) => `${row.folder} -> ${target}`),
    );
    expect(backward).toEqual([]);
  });

  it("finds no import the matrix does not allow, in any folder", () => {
    const allowed = new Map(layerMatrix.map((row) => [row.folder, new Set(row.mayImport)]));
    const outside = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) !== layerOf(file))
        .filter((target) => !allowed.get(layerOf(file))?.has(layerOf(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("is the table docs/architecture.md shows, row for row", () => {
    const documented = layerTable(readFileSync(resolve(source, "../../../docs/architecture.md"), "utf8"));
    const expected = layerMatrix
      .filter((row) => row.folder !== "(root)")
      .map((row) => ({ folder: row.folder, mayImport: [...row.mayImport].sort() }));
    expect(documented).toEqual(expected);
  });
});

/** The rows of the "may import" table under "## The core's layers", lowest layer first. */
function layerTable(markdown: string): Array<{ folder: string; mayImport: string[] }> {
  const section = markdown.slice(markdown.indexOf("## The core's layers"));
  const rows = section.slice(0, section.indexOf("\n\n", section.indexOf("| folder |"))).split("\n");
  return rows
    .filter((line) => /^\| `[a-z]+\/` \|/.test(line))
    .map((line) => {
      const cells = line.split(" | ");
      const imports = cells
        .at(-1)!
        .replace(/\s*\|$/, "")
        .trim();
      return {
        folder: /`([a-z]+)\/`/.exec(cells[0]!)![1]!,
        mayImport:
          imports === "—"
            ? []
            : imports
                .split(", ")
                .map((name) => name.replace(/`|\//g, ""))
                .sort(),
      };
    })
    .reverse();
}
