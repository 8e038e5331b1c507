import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const examples = join(root, "examples");
const CHECKED_LANGUAGES = new Set(["ts", "typescript", "tsx"]);
const SKIPPED_FOLDERS = new Set(["node_modules", "dist"]);

/** Every file under `folder` (skipping node_modules and dist) whose name ends with `suffix`. */
function filesUnder(folder: string, suffix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) {
        found.push(...filesUnder(join(folder, entry.name), suffix));
      }
    } else if (entry.name.endsWith(suffix)) {
      found.push(join(folder, entry.name));
    }
  }
  return found;
}

/** Removes trailing whitespace of each line, blank lines at both ends and the indentation all lines share. */
export function normalizeSnippet(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const indents = lines.filter((line) => line !== "").map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(common)).join("\n");
}

/** A `// #region NAME` … `// #endregion [NAME]` block of an example file. */
export interface Region {
  file: string;
  name: string;
  body: string;
}

/** The regions of a source file; regions may nest, and the marker lines themselves are left out of every body. */
export function regionsOf(file: string, source: string): Region[] {
  const regions: Region[] = [];
  const open: { name: string; lines: string[] }[] = [];
  for (const line of source.split(/\r?\n/)) {
    const start = /^\s*\/\/\s*#region\s+(\S+)/.exec(line);
    if (start) {
      open.push({ name: start[1] ?? "", lines: [] });
      continue;
    }
    if (/^\s*\/\/\s*#endregion\b/.test(line)) {
      const closed = open.pop();
      if (closed) regions.push({ file, name: closed.name, body: normalizeSnippet(closed.lines.join("\n")) });
      continue;
    }
    for (const region of open) region.lines.push(line);
  }
  return regions;
}

/** A fenced TypeScript block of a markdown page. */
export interface DocsBlock {
  page: string;
  line: number;
  body: string;
}

/** The fenced blocks of a markdown page whose info string is ts, typescript or tsx. */
export function typescriptBlocksOf(page: string, markdown: string): DocsBlock[] {
  const blocks: DocsBlock[] = [];
  const lines = markdown.split(/\r?\n/);
  let fence: { marker: string; language: string; line: number; lines: string[] } | undefined;
  for (const [index, line] of lines.entries()) {
    if (fence === undefined) {
      const opening = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
      if (opening)
        fence = { marker: opening[1] ?? "```", language: opening[2] ?? "", line: index + 1, lines: [] };
      continue;
    }
    const closing = line.trim();
    if (closing.startsWith(fence.marker) && closing.replaceAll(fence.marker[0] ?? "`", "") === "") {
      if (CHECKED_LANGUAGES.has(fence.language.toLowerCase())) {
        blocks.push({ page, line: fence.line, body: normalizeSnippet(fence.lines.join("\n")) });
      }
      fence = undefined;
      continue;
    }
    fence.lines.push(line);
  }
  return blocks;
}

/** The markdown pages whose TypeScript must come from examples. */
function checkedPages(): string[] {
  const packageReadmes = readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, "packages", entry.name, "README.md"));
  const pages = [
    ...filesUnder(join(root, "docs"), ".md"),
    join(root, "README.md"),
    ...packageReadmes,
    ...filesUnder(examples, "README.md"),
  ];
  return pages.filter((page) => {
    try {
      readFileSync(page);
      return true;
    } catch {
      return false;
    }
  });
}

describe("regionsOf and typescriptBlocksOf", () => {
  it("collects nested regions without their marker lines, with or without a name after #endregion", () => {
    const source = [
      "const before = 1;",
      "// #region outer",
      "  // #region inner",
      "  const a = 1;",
      "  // #endregion inner",
      "const b = 2;",
      "// #endregion",
    ].join("\n");
    const regions = regionsOf("x.ts", source);
    expect(regions.map((region) => [region.name, region.body])).toEqual([
      ["inner", "const a = 1;"],
      ["outer", "  const a = 1;\nconst b = 2;"],
    ]);
  });

  it("takes only ts, typescript and tsx blocks and numbers them by their opening line", () => {
    const markdown = [
      "# t",
      "```ts",
      "  a();",
      "```",
      "```text",
      "not code",
      "```",
      "```typescript",
      "b();",
      "```",
    ];
    expect(typescriptBlocksOf("p.md", markdown.join("\n"))).toEqual([
      { page: "p.md", line: 2, body: "a();" },
      { page: "p.md", line: 8, body: "b();" },
    ]);
  });
});

describe("docs code blocks", () => {
  it("are each the body of a #region of a type-checked file under examples/", () => {
    const regionBodies = new Set(
      filesUnder(examples, ".ts").flatMap((file) =>
        regionsOf(file, readFileSync(file, "utf8")).map((region) => region.body),
      ),
    );
    const pages = checkedPages();
    expect(pages.length).toBeGreaterThan(10);
    const offending: string[] = [];
    for (const page of pages) {
      for (const block of typescriptBlocksOf(relative(root, page), readFileSync(page, "utf8"))) {
        if (!regionBodies.has(block.body)) {
          const firstLine = block.body.split("\n")[0] ?? "";
          offending.push(`${block.page}:${block.line}: ${firstLine}`);
        }
      }
    }
    const advice =
      "These TypeScript blocks are not the body of any `// #region NAME` … `// #endregion` of a file under examples/. " +
      "Move each snippet into an example file (examples/docs/<page>.ts) inside a named region and paste the region's " +
      "text into the page; mark a block that is not code (an error message, output) as ```text.";
    expect(offending, `${advice}\n${offending.join("\n")}`).toEqual([]);
  });
});
