// A routekit backend for an AI SDK chat page: POST /api/chat takes useChat's request body and
// answers the AI SDK's UI message stream (text, tool calls and their results, usage, aborts).
// Run from the repository root: pnpm exec tsx examples/ai-sdk-ui/server.ts

import { pathToFileURL } from "node:url";
import { createContext, type RouteContext } from "@routekit/core";
import { HTTP_HEADERS, httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { type DemoModelServer, startDemoModelServer } from "../chat-stream/demo-model-server.js";
import { bundlePage, CHAT_PAGE_HTML } from "./bundle-page.js";

/** The running backend: its base URL, its context, and how to stop both. */
export interface ChatBackend {
  readonly url: string;
  readonly context: RouteContext;
  stop(): Promise<void>;
}

/**
 * Starts the backend on `port` (0: any free port) with the local demo model, a word every `paceMs`;
 * with `pageScript` (from `bundlePage()`) it also serves the useChat page at `/`.
 */
export async function startChatBackend(port = 0, paceMs = 40, pageScript?: string): Promise<ChatBackend> {
  const demo: DemoModelServer = await startDemoModelServer(paceMs);
  const context = createContext({ logLevel: "warn" });
  context.use(httpPlugin({ port }));
  context.use(
    llmPlugin({ models: { chat: openAiChat({ model: "demo-model", baseURL: demo.url, stream: true }) } }),
  );
  // #region ui-message-route
  await context.addRoutes((r) => {
    r.from("direct:tool.local_time")
      .asLlmTool("local_time", {
        description: "The current time in an IANA time zone such as UTC or Europe/Oslo.",
        input: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
      })
      .transform(({ body }) => {
        const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "medium", timeZone: body.zone });
        return `${time.format(new Date())} ${body.zone}`;
      });
    // useChat posts { id, messages: [...] }; the reply is the UI message stream it reads.
    r.from("http:/api/chat?httpMethodRestrict=POST").to(
      llm("chat").tools("local_time").stream({ format: "ui-message" }).uri(),
    );
  });
  // #endregion ui-message-route
  if (pageScript !== undefined) await addPageRoutes(context, pageScript);
  await context.start();
  const server = httpServerOf(context);
  return {
    url: server.url,
    context,
    async stop() {
      await context.stop();
      await demo.close();
    },
  };
}

/** GET / answers the page's HTML, GET /chat-page.js its bundled script. */
async function addPageRoutes(context: RouteContext, pageScript: string): Promise<void> {
  const contentType = `${HTTP_HEADERS.responseHeaderPrefix}content-type`;
  await context.addRoutes((r) => {
    r.from("http:/?httpMethodRestrict=GET").process((exchange) => {
      exchange.headers[contentType] = "text/html; charset=utf-8";
      exchange.body = CHAT_PAGE_HTML;
    });
    r.from("http:/chat-page.js?httpMethodRestrict=GET").process((exchange) => {
      exchange.headers[contentType] = "text/javascript; charset=utf-8";
      exchange.body = pageScript;
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const backend = await startChatBackend(Number(process.env.PORT ?? 3000), 40, await bundlePage());
  console.log(`the useChat page: ${backend.url}/ (its api: ${backend.url}/api/chat)`);
  process.once("SIGINT", () => void backend.stop());
}
