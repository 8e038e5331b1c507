// Where the time of `await context.request("direct:…")` goes: the direct bench's route and smaller
// routes, each measured in the same alternating rounds as the bare chain + await it is set
// against, so the differences between rows price one piece each (a hop, a step, the exchange).
// Not part of `pnpm bench`; run it with `pnpm exec tsx bench/direct-breakdown.ts [rounds]`.
import { createContext } from "@routekit/core";
import { compareAll, formatNs } from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

const ITERATIONS = 200_000;

const context = createContext();
await context.addRoutes((r) => {
  r.from("direct:start").to("direct:a").to("direct:b").to("direct:c").to("mock:result?retainFirst=0");
  for (const name of ["a", "b", "c"]) r.from(`direct:${name}`).to(`log:${name}?level=off`);
  r.from("direct:start-without-log")
    .to("direct:step-a")
    .to("direct:step-b")
    .to("direct:step-c")
    .to("mock:result-without-log?retainFirst=0");
  for (const name of ["step-a", "step-b", "step-c"]) r.from(`direct:${name}`).process(() => undefined);
  r.from("direct:one-step").process(() => undefined);
  r.from("direct:two-steps")
    .process(() => undefined)
    .process(() => undefined);
  r.from("direct:hop").to("direct:one-step");
  r.from("direct:log-off").to("log:breakdown?level=off");
  r.from("direct:mock").to("mock:breakdown?retainFirst=0");
});
await context.start();

let sink = 0;
let lastMessage: PlainMessage<number> | undefined;
const log = (_message: PlainMessage<number>) => undefined;
const sub = (message: PlainMessage<number>) => log(message);
const start = (message: PlainMessage<number>): number => {
  sub(message);
  sub(message);
  sub(message);
  lastMessage = message;
  return message.body;
};
const requesting = (uri: string) => async (iterations: number) => {
  for (let index = 0; index < iterations; index++) await context.request(uri, index);
};
const endpoint = context.endpoint("direct:one-step");
const producer = context.producer("direct:one-step");

const cases: ReadonlyArray<readonly [string, (iterations: number) => void | Promise<void>]> = [
  [
    "bare chain + await (the direct bench's baseline)",
    async (iterations) => {
      for (let index = 0; index < iterations; index++) sink += await start({ body: index, headers: {} });
    },
  ],
  ["the direct bench: 4 routes, 3 log:off steps, mock", requesting("direct:start")],
  ["the same with no-op process steps for log:off", requesting("direct:start-without-log")],
  ["request → 1 route, 1 no-op step", requesting("direct:one-step")],
  ["request → 1 route, 2 no-op steps", requesting("direct:two-steps")],
  ["request → route → direct: → route, 1 no-op step", requesting("direct:hop")],
  ["request → 1 route, log:off", requesting("direct:log-off")],
  ["request → 1 route, mock retaining nothing", requesting("direct:mock")],
  [
    "producer handle (context.producer), 1 no-op step",
    async (iterations) => {
      for (let index = 0; index < iterations; index++) sink += (await producer.request(index)) as number;
    },
  ],
  [
    "endpoint resolved once, createExchange + send, await",
    async (iterations) => {
      for (let index = 0; index < iterations; index++) {
        const exchange = context.createExchange({ body: index, pattern: "InOut" });
        await endpoint.send(exchange);
        sink += exchange.body as number;
      }
    },
  ],
  [
    "createExchange + await (no route)",
    async (iterations) => {
      for (let index = 0; index < iterations; index++) {
        const exchange = context.createExchange({ body: index, pattern: "InOut" });
        sink += (await exchange.body) as number;
      }
    },
  ],
];

const rounds = Number(process.argv[2] ?? 15);
const stats = await compareAll(
  cases.map(([, operation]) => operation),
  ITERATIONS,
  rounds,
);
await context.stop();
if (sink === 0 || lastMessage === undefined) throw new Error("the baseline never ran");
const baseline = stats[0]?.medianNs ?? Number.NaN;
console.log(`${ITERATIONS.toLocaleString("en-US")} messages per run, ${rounds} alternating rounds`);
for (const [position, [name]] of cases.entries()) {
  const row = stats[position];
  if (row === undefined) continue;
  console.log(
    `${name.padEnd(52)} ${formatNs(row.medianNs).padStart(9)} ±${row.spreadPercent.toFixed(0).padStart(3)}%  ${(row.medianNs / baseline).toFixed(2)}×`,
  );
}
