// Structural figures of the workspace, read from the TypeScript syntax tree:
//   node scripts/measure-structure.mjs functions [min-lines] [path-prefix ...]
//   node scripts/measure-structure.mjs errors
//   node scripts/measure-structure.mjs exports
// `functions` lists functions, methods and arrow functions of packages/*/src longer than
// min-lines (default 80); `errors` lists error classes that do not extend RoutekitError;
// `exports` counts the names each package root (and /internal) exports, values and types.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = new URL("..", import.meta.url).pathname;
const packagesDirectory = join(root, "packages");

function sourceFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (path.endsWith(".ts") && !path.endsWith(".d.ts") && !/\.test(-d)?\.ts$/.test(path))
      files.push(path);
  }
  return files;
}

function allSources() {
  return readdirSync(packagesDirectory).flatMap((name) => {
    const source = join(packagesDirectory, name, "src");
    try {
      return sourceFiles(source);
    } catch {
      return [];
    }
  });
}

function parse(path) {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

function measureFunctions(minimum, prefixes) {
  const rows = [];
  for (const path of allSources()) {
    const where = relative(root, path);
    if (prefixes.length > 0 && !prefixes.some((prefix) => where.startsWith(prefix))) continue;
    const file = parse(path);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > minimum) rows.push({ lines, where: `${where}:${start + 1}`, name: functionName(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  rows.sort((left, right) => right.lines - left.lines);
  for (const row of rows) console.log(`${String(row.lines).padStart(4)}  ${row.name}  ${row.where}`);
  console.log(`${rows.length} function(s) over ${minimum} lines`);
}

function measureErrors() {
  const parents = new Map();
  const places = new Map();
  for (const path of allSources()) {
    const file = parse(path);
    const visit = (node) => {
      if (ts.isClassLike(node) && node.name) {
        const heritage = node.heritageClauses?.find(
          (clause) => clause.token === ts.SyntaxKind.ExtendsKeyword,
        );
        const base = heritage?.types[0]?.expression.getText(file);
        if (base) {
          parents.set(node.name.text, base);
          places.set(node.name.text, relative(root, path));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const ancestors = (name) => {
    const chain = [];
    let current = name;
    for (let depth = 0; depth < 20 && parents.has(current); depth++) {
      current = parents.get(current).replace(/<.*$/, "");
      chain.push(current);
    }
    return chain;
  };
  const errors = [...parents.keys()].filter(
    (name) => /Error$/.test(name) || ancestors(name).some((base) => /Error$/.test(base)),
  );
  const without = errors.filter(
    (name) => name !== "RoutekitError" && !ancestors(name).includes("RoutekitError"),
  );
  for (const name of without) console.log(`  ${name} extends ${parents.get(name)}  ${places.get(name)}`);
  console.log(`${errors.length - 1} error class(es); ${without.length} without RoutekitError`);
}

function measureExports() {
  const entries = [];
  for (const name of readdirSync(packagesDirectory)) {
    for (const entry of ["index.ts", "internal.ts"]) {
      const path = join(packagesDirectory, name, "src", entry);
      try {
        statSync(path);
        entries.push(path);
      } catch {}
    }
  }
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  for (const path of entries) {
    const file = program.getSourceFile(path);
    const symbol = file && checker.getSymbolAtLocation(file);
    if (!symbol) continue;
    let values = 0;
    let types = 0;
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (target.flags & ts.SymbolFlags.Value) values++;
      else types++;
    }
    console.log(
      `${relative(packagesDirectory, path).padEnd(28)} ${String(values + types).padStart(4)} names (${values} values, ${types} types)`,
    );
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === "functions") measureFunctions(Number(rest[0] ?? 80), rest.slice(1));
else if (command === "errors") measureErrors();
else if (command === "exports") measureExports();
else console.log("usage: measure-structure.mjs functions [min-lines] [path-prefix ...] | errors | exports");
