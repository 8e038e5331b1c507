import { createContext, type RouteContext } from "@routekit/core";
import { HTTP_HEADERS, httpPlugin, httpServerOf } from "@routekit/http";
import { anthropicMessages, type LanguageModel, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { type DemoModelServer, startDemoModelServer } from "./demo-model-server.js";
import { CHAT_PAGE } from "./page.js";

/** The longest question the endpoint takes. */
const MAX_QUESTION = 2_000;

/** A running chat server: its base URL, its context, and how to stop both. */
export interface ChatServer {
  readonly url: string;
  readonly context: RouteContext;
  stop(): Promise<void>;
}

export interface ChatServerOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** The model; default a real one when a key is set, else the local demo model server. */
  model?: LanguageModel;
}

// #region model
/** A streaming model: OpenAI or Anthropic when a key is set, otherwise the local demo server. */
async function chooseModel(): Promise<{ model: LanguageModel; demo?: DemoModelServer }> {
  if (process.env.OPENAI_API_KEY !== undefined || process.env.OPENAI_BASE_URL !== undefined) {
    return { model: openAiChat({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini", stream: true }) };
  }
  if (process.env.ANTHROPIC_API_KEY !== undefined) {
    const model = process.env.ANTHROPIC_MODEL ?? "claude-3-5-haiku-latest";
    return { model: anthropicMessages({ model, stream: true }) };
  }
  const demo = await startDemoModelServer();
  return { model: openAiChat({ model: "demo-model", baseURL: demo.url, stream: true }), demo };
}
// #endregion

/** Serves the page at `/` and the agent's streamed answer at `/chat?q=...` (server-sent events). */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const chosen = options.model === undefined ? await chooseModel() : { model: options.model };
  const context = createContext({ logLevel: "warn" });
  context.use(httpPlugin({ port: options.port ?? 0 }));
  context.use(llmPlugin({ models: { chat: chosen.model } }));
  // #region routes
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

    r.from("http:/?httpMethodRestrict=GET").process((exchange) => {
      exchange.headers[`${HTTP_HEADERS.responseHeaderPrefix}content-type`] = "text/html; charset=utf-8";
      exchange.body = CHAT_PAGE;
    });

    r.from("http:/chat?httpMethodRestrict=GET")
      .routeId("chat")
      .process((exchange) => {
        const query = exchange.headers[HTTP_HEADERS.query] as Record<string, string | string[]>;
        const question = query.q;
        if (typeof question !== "string" || question.trim() === "" || question.length > MAX_QUESTION) {
          exchange.headers[HTTP_HEADERS.status] = 400;
          exchange.body = { error: `expected one query parameter q of 1-${MAX_QUESTION} characters` };
          return;
        }
        exchange.body = question;
      })
      .filter((exchange) => exchange.headers[HTTP_HEADERS.status] !== 400)
      // The body becomes an LlmStream: the http: endpoint answers it as server-sent events.
      .to(llm("chat").tools("local_time").systemPrompt("Answer briefly.").stream().uri());
  });
  // #endregion
  await context.start();
  return {
    url: httpServerOf(context).url,
    context,
    async stop() {
      await context.stop();
      await chosen.demo?.close();
    },
  };
}
