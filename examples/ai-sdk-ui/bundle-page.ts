// Bundles the chat page (page/chat-page.ts: React, @ai-sdk/react's useChat) with Vite into one
// script, in memory. The server serves it; `pnpm exec tsx examples/ai-sdk-ui/server.ts` bundles it
// at start.
import { fileURLToPath } from "node:url";
import { build, type Rollup } from "vite";

const pageDirectory = fileURLToPath(new URL("./page", import.meta.url));

/** The page's script: React, the AI SDK's useChat and the page's own code. */
export async function bundlePage(): Promise<string> {
  const result = await build({
    configFile: false,
    mode: "production",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    envDir: false,
    root: pageDirectory,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      target: "es2022",
      modulePreload: false,
      rollupOptions: {
        input: `${pageDirectory}/chat-page.ts`,
        output: { entryFileNames: "chat-page.js", codeSplitting: false },
        // swr (used by @ai-sdk/react) marks its modules "use client", which means nothing in one script.
        onwarn(warning, warn) {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
        },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const script = outputs.flatMap((output) => output.output).find((file) => file.fileName === "chat-page.js");
  if (script === undefined || script.type !== "chunk") {
    throw new Error("bundlePage: the bundle has no chat-page.js");
  }
  return script.code;
}

/** The page's HTML, loading the script from `/chat-page.js`. */
export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>routekit with useChat</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; }
.user { color: #555; } .tool { font-family: monospace; margin: 0.25rem 0; } .reasoning { color: #777; }
</style>
</head>
<body>
<div id="root"></div>
<script type="module" src="/chat-page.js"></script>
</body>
</html>
`;
