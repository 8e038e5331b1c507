// The code of docs/guide/for-ai-sdk-users.md: type-checked; the test runs main() to check what the
// page says (with a scripted model in place of OpenAI, so no network is needed).
import assert from "node:assert/strict";
import { createContext, type RouteContext, RouteStepError } from "@routekit/core";
import {
  type LanguageModel,
  llm,
  llmPlugin,
  OutputValidationError,
  openAiChat,
  ToolExecutionError,
  type ToolTypes,
  toTool,
} from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { z } from "zod";

// #region weather-tool
const weatherInput = z.object({
  location: z.string().describe("The location to get the weather for"),
});

const weather = toTool({
  name: "weather",
  description: "Get the weather in a location",
  inputSchema: weatherInput,
  // `location` is a string: inferred from the schema, no annotation.
  execute: async ({ location }) => ({ location, temperature: 72 }),
});
// #endregion weather-tool

// #region tool-types
declare module "@routekit/llm" {
  interface LlmToolTypes {
    weather: ToolTypes<typeof weatherInput, { location: string; temperature: number }>;
  }
}
// #endregion tool-types

/** The model the page uses; main() swaps in a scripted one. */
export function openAiModel(): LanguageModel {
  // #region model
  const model = openAiChat({ model: "gpt-4o-mini" }); // the key comes from OPENAI_API_KEY
  // #endregion model
  return model;
}

// #region forecast-schema
const forecast = z.object({
  location: z.string(),
  temperature: z.number(),
  summary: z.string(),
});
// #endregion forecast-schema

async function agent(model: LanguageModel): Promise<RouteContext> {
  // #region generate-text
  const context = createContext();
  context.use(llmPlugin({ models: { openai: model } }));
  context.tools.register(weather);
  await context.addRoutes((r) => {
    r.from("direct:ask").to(llm("openai").tools("weather").maxIterations(5).uri());
    r.from("direct:forecast")
      .to(llm("openai").tools("weather").output(forecast).uri())
      .process((exchange) => {
        // exchange.body is { location: string; temperature: number; summary: string }
        exchange.headers.summary = exchange.body.summary;
      });
  });
  await context.start();
  // #endregion generate-text
  return context;
}

/** A route as the same tool: the schema types the body and guards the route for every caller. */
async function weatherRoute(context: RouteContext): Promise<void> {
  // #region weather-route
  await context.addRoutes((r) => {
    r.from("direct:weather")
      .routeId("weather")
      .asLlmTool("weather_route", {
        description: "Get the weather in a location",
        input: z.object({ location: z.string() }),
      })
      // exchange.body is { location: string }
      .transform((exchange) => ({ location: exchange.body.location, temperature: 72 }));
  });
  // #endregion weather-route
}

export async function main(): Promise<void> {
  const model = scriptedModel([
    { toolCalls: [{ name: "weather", arguments: { location: "San Francisco" } }] },
    { text: "It is 72°F in San Francisco." },
    { toolCalls: [{ name: "weather", arguments: { location: "Paris" } }] },
    { text: '{"location":"Paris","temperature":72,"summary":"mild"}' },
  ]);
  const context = await agent(model);
  try {
    // #region ask
    const text = await context.request("direct:ask", "What is the weather in San Francisco?");
    // #endregion ask
    assert.equal(text, "It is 72°F in San Francisco.");

    // #region ask-forecast
    const exchange = await context.requestExchange("direct:forecast", { body: "Weather in Paris?" });
    // #endregion ask-forecast
    assert.deepEqual(exchange.body, { location: "Paris", temperature: 72, summary: "mild" });
    assert.equal(exchange.headers.summary, "mild");

    // #region call
    const result = await context.tools.call(weather, { location: "Oslo" });
    // result is { location: string; temperature: number }
    // #endregion call
    assert.deepEqual(result, { location: "Oslo", temperature: 72 });
    // #region call-by-name
    const byName = await context.tools.call("weather", { location: "Rome" });
    // byName is { location: string; temperature: number }
    // #endregion call-by-name
    assert.equal(byName.temperature, 72);

    const refused = async () => {
      // #region wrong-argument
      // @ts-expect-error: location is a string
      await context.tools.call(weather, { location: 42 });
      // #endregion wrong-argument
    };
    await assert.rejects(refused, (error: unknown) => {
      assert.ok(error instanceof ToolExecutionError);
      assert.equal(error.code, "TOOL_ARGUMENTS_INVALID");
      return true;
    });

    await weatherRoute(context);
    assert.deepEqual(await context.request("direct:weather", { location: "Lima" }), {
      location: "Lima",
      temperature: 72,
    });
    await assert.rejects(context.request("direct:weather", { city: "Lima" }), (error: unknown) => {
      assert.ok(error instanceof RouteStepError);
      assert.equal(
        error.message,
        "Route 'weather' failed at step #1 process(asLlmTool(weather_route)): ToolExecutionError: " +
          "invalid arguments for tool 'weather_route': must have required property 'location'",
      );
      return true;
    });
    assert.equal(typeof OutputValidationError, "function");
  } finally {
    await context.stop();
  }
}
