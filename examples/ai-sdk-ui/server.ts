// A routekit backend for an AI SDK chat page: POST /api/chat takes useChat's request body and
// answers the AI SDK's UI message stream (text, tool calls and their results, usage, aborts).
// Run from the repository root: pnpm exec tsx examples/ai-sdk-ui/server.ts

import { pathToFileURL } from "node:url";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { type DemoModelServer, startDemoModelServer } from "../chat-stream/demo-model-server.js";

/** The running backend: its base URL, its context, and how to stop both. */
export interface ChatBackend {
  readonly url: string;
  readonly context: RouteContext;
  stop(): Promise<void>;
}

/** Starts the backend on `port` (0: any free port) with the local demo model, a word every `paceMs`. */
export async function startChatBackend(port = 0, paceMs = 40): Promise<ChatBackend> {
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const backend = await startChatBackend(Number(process.env.PORT ?? 3000));
  console.log(`useChat's api: ${backend.url}/api/chat`);
  process.once("SIGINT", () => void backend.stop());
}
