import { defineConfig } from "vitest/config";

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ["**/*.test.ts", "**/*.test-d.ts"], exclude: ["**/node_modules/**"] },
});

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: true, include: ["**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    projects: [
      project("core", "packages/core"),
      project("llm", "packages/llm"),
      project("llm-tools", "packages/llm-tools"),
      project("amqp", "packages/amqp"),
      project("http", "packages/http"),
      project("examples", "examples"),
    ],
  },
});
