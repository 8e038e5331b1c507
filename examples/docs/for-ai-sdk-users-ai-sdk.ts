// The AI SDK side of docs/guide/for-ai-sdk-users.md: type-checked against the AI SDK (version 6),
// never run (it would call OpenAI).
// #region ai-tool

import { openai } from "@ai-sdk/openai";
import { generateText, Output, stepCountIs, tool } from "ai";
import { z } from "zod";

const weather = tool({
  description: "Get the weather in a location",
  inputSchema: z.object({
    location: z.string().describe("The location to get the weather for"),
  }),
  execute: async ({ location }) => ({ location, temperature: 72 }),
});
// #endregion ai-tool

export async function askAiSdk(): Promise<string> {
  // #region ai-generate-text
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    tools: { weather },
    stopWhen: stepCountIs(5),
    prompt: "What is the weather in San Francisco?",
  });
  // #endregion ai-generate-text
  return text;
}

export async function forecastAiSdk(): Promise<string> {
  // #region ai-output
  const { output } = await generateText({
    model: openai("gpt-4o-mini"),
    tools: { weather },
    output: Output.object({
      schema: z.object({ location: z.string(), temperature: z.number(), summary: z.string() }),
    }),
    stopWhen: stepCountIs(5),
    prompt: "Weather in Paris?",
  });
  // output is { location: string; temperature: number; summary: string }
  // #endregion ai-output
  return output.summary;
}
