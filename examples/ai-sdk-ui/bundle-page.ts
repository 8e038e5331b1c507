// Bundles the chat page (page/chat-page.ts: React, @ai-sdk/react's useChat) with Vite into one
// script, in memory. The server serves it; `pnpm exec tsx examples/ai-sdk-ui/server.ts` bundles it
// at start.
import { fileURLToPath } from "node:url";
import { bundlePage as bundleWithVite } from "@routekit/test-support/page-bundle";

const pageDirectory = fileURLToPath(new URL("./page", import.meta.url));

/** The page's script: React, the AI SDK's useChat and the page's own code. */
export async function bundlePage(): Promise<string> {
  const bundled = await bundleWithVite({
    root: pageDirectory,
    input: `${pageDirectory}/chat-page.ts`,
    script: "chat-page.js",
    // swr (used by @ai-sdk/react) marks its modules "use client", which means nothing in one script.
    quietWarnings: ["MODULE_LEVEL_DIRECTIVE"],
  });
  return bundled.script;
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
