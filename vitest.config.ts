import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Soak tests (files named soak-*.test.ts: long runs that check nothing leaks or stalls over time)
// run on their own with `pnpm test:soak` (`vitest run --mode soak`); `pnpm test` runs the rest.
const SOAK = "**/soak-*.test.ts";

// Each project type-checks its *.test-d.ts files under its own tsconfig.json: sibling packages
// resolve to their sources (no build needed on a fresh clone), and a package's DSL verbs are typed
// only where that package is imported. Roots are absolute, so `pnpm --filter <package> test`
// (vitest started in the package's folder with --root at the workspace) finds the same files.
const project = (name: string, root: string, soak: boolean) => ({
  extends: true as const,
  test: {
    name,
    root: fileURLToPath(new URL(root, import.meta.url)),
    include: soak ? [SOAK] : ["**/*.test.ts", "**/*.test-d.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", ...(soak ? [] : [SOAK])],
    typecheck: {
      enabled: !soak,
      include: ["**/*.test-d.ts"],
      tsconfig: fileURLToPath(new URL(`${root}/tsconfig.json`, import.meta.url)),
    },
  },
});

export default defineConfig(({ mode }) => {
  const soak = mode === "soak";
  return {
    test: {
      testTimeout: 20_000,
      hookTimeout: 30_000,
      // The default report, then how many service and browser tests were skipped for want of a
      // service (with CI=true they fail instead).
      reporters: [
        "default",
        fileURLToPath(new URL("packages/test-support/src/skip-reporter.ts", import.meta.url)),
      ],
      projects: [
        project("core", "packages/core", soak),
        project("llm", "packages/llm", soak),
        project("llm-tools", "packages/llm-tools", soak),
        project("amqp", "packages/amqp", soak),
        project("http", "packages/http", soak),
        project("redis", "packages/redis", soak),
        project("postgres", "packages/postgres", soak),
        project("mcp", "packages/mcp", soak),
        project("otel", "packages/otel", soak),
        project("console", "packages/console", soak),
        project("cli", "packages/cli", soak),
        project("test-support", "packages/test-support", soak),
        project("examples", "examples", soak),
      ],
    },
  };
});
