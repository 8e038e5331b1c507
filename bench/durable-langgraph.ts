// The peer of the durable benchmark: the same 3-tool agent written with LangGraph.js as its docs
// show — a prebuilt ReAct agent over ChatOpenAI, checkpointed by the PostgreSQL checkpointer.
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";

/** An agent whose `run(threadId)` runs one conversation to its answer; `close` ends its pool. */
export async function langGraphAgent(modelUrl: string, connection: string) {
  const checkpointer = PostgresSaver.fromConnString(connection);
  await checkpointer.setup();
  const tools = [
    tool(async ({ order }) => JSON.stringify({ order, items: 3 }), {
      name: "lookup",
      description: "Looks an order up.",
      schema: z.object({ order: z.string() }),
    }),
    tool(async ({ item }) => JSON.stringify({ item, unit: 1250 }), {
      name: "price",
      description: "Prices an item in cents.",
      schema: z.object({ item: z.string() }),
    }),
    tool(async ({ count, unit }) => JSON.stringify({ total: count * unit }), {
      name: "total",
      description: "Multiplies count by unit price.",
      schema: z.object({ count: z.number(), unit: z.number() }),
    }),
  ];
  const model = new ChatOpenAI({
    model: "agent",
    apiKey: "local",
    configuration: { baseURL: `${modelUrl}/v1` },
    maxRetries: 0,
  });
  const agent = createReactAgent({ llm: model, tools, checkpointer });
  return {
    async run(threadId: string): Promise<string> {
      const state = await agent.invoke(
        { messages: [{ role: "user", content: "What does order A-1 cost in total?" }] },
        { configurable: { thread_id: threadId } },
      );
      const last = state.messages.at(-1);
      return String(last?.content ?? "");
    },
    close: () => checkpointer.end(),
  };
}
