// The code of docs/guide/llm-step.md (RxJS both ways): type-checked; the test runs main() with a
// scripted model in place of a provider, so no network is needed.
import { createContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { map, Subject } from "rxjs";

/** A prompt pushed by an Observable reaches the model; the answers watched on seda:answers are returned. */
export async function main(): Promise<string[]> {
  const context = createContext({ logLevel: "warn" });
  context.use(llmPlugin({ models: { chat: scriptedModel([{ text: "Hello!" }]) } }));
  await context.addRoutes((r) => {
    r.from<string>("seda:answers").to("mock:answers");
  });
  // #region observe
  const answers: string[] = [];
  const subscription = context
    .observe<string>("seda:answers")
    .pipe(map((exchange) => exchange.body))
    .subscribe((answer) => answers.push(answer));
  // #endregion observe
  // #region from-observable
  const prompts$ = new Subject<string>();
  await context.addRoutes((r) => {
    r.from(prompts$, { bufferSize: 100 }).routeId("prompts").to(llm("chat").uri()).to("seda:answers");
  });
  await context.start();
  prompts$.next("Say hello");
  // #endregion from-observable
  const mock = context.endpoint("mock:answers");
  mock.expectedBodiesReceived("Hello!");
  await mock.assertIsSatisfied(5000);
  // #region unsubscribe
  subscription.unsubscribe(); // removes its listeners from context.events
  // #endregion unsubscribe
  await context.stop();
  return answers;
}
