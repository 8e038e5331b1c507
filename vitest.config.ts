import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Each project type-checks its *.test-d.ts files under its own tsconfig.json: sibling packages
// resolve to their sources (no build needed on a fresh clone), and a package's DSL verbs are typed
// only where that package is imported.
const project = (name: string, root: string) => ({
  extends: true as const,
  test: {
    name,
    root,
    include: ["**/*.test.ts", "**/*.test-d.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    typecheck: {
      enabled: true,
      include: ["**/*.test-d.ts"],
      tsconfig: fileURLToPath(new URL(`${root}/tsconfig.json`, import.meta.url)),
    },
  },
});

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The default report, then how many service and browser tests were skipped for want of a
    // service (with CI=true they fail instead).
    reporters: ["default", "./packages/test-support/src/skip-reporter.ts"],
    projects: [
      project("core", "packages/core"),
      project("llm", "packages/llm"),
      project("llm-tools", "packages/llm-tools"),
      project("amqp", "packages/amqp"),
      project("http", "packages/http"),
      project("redis", "packages/redis"),
      project("postgres", "packages/postgres"),
      project("mcp", "packages/mcp"),
      project("otel", "packages/otel"),
      project("console", "packages/console"),
      project("cli", "packages/cli"),
      project("test-support", "packages/test-support"),
      project("examples", "examples"),
    ],
  },
});
