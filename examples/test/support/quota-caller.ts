// One instance of a service calling a model under a provider quota shared through Redis: waits for
// "go" on stdin, makes CALLS calls one after another GAP_MS apart, prints what each call did.
import { createContext } from "@routekit/core";
import { llm, llmPlugin, openAiChat, providerQuota } from "@routekit/llm";
import { connectRedis } from "@routekit/redis";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`quota-caller: environment variable ${name} is missing`);
  return value;
};

const redis = await connectRedis({ host: "127.0.0.1", port: 6379 });
const context = createContext();
context.use(
  llmPlugin({
    models: {
      m: openAiChat({ model: "gpt-4o-mini", baseURL: env("PROVIDER_URL"), apiKey: "sk-test", maxRetries: 0 }),
    },
    quota: providerQuota({
      requestsPerMinute: Number(env("REQUESTS_PER_MINUTE")),
      burstSeconds: Number(env("BURST_SECONDS")),
      store: redis.quotaStore(env("QUOTA_NAME")),
    }),
  }),
);
await context.addRoutes((r) => r.from("direct:ask").to(llm("m").uri()));
await context.start();
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
process.stdin.destroy();

const name = env("CALLER");
const calls = Number(env("CALLS"));
const gapMs = Number(env("GAP_MS"));
const outcomes: string[] = [];
const all: Promise<void>[] = [];
for (let index = 0; index < calls; index++) {
  const call = context.requestExchange("direct:ask", { body: `${name} call ${index}` }).then((exchange) => {
    outcomes.push(exchange.error === undefined ? "ok" : `failed: ${exchange.error.message}`);
  });
  all.push(call);
  if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  else await call;
}
await Promise.all(all);
await context.stop();
await redis.close();
process.stdout.write(`${JSON.stringify({ caller: name, outcomes })}\n`);
