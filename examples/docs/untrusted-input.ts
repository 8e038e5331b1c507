// The code of docs/guide/untrusted-input.md; run by examples/test/docs-examples.test.ts.
import { type BudgetTask, createBudget, createContext, sharedBudget } from "@routekit/core";
import { XPathTool } from "@routekit/llm-tools";
import { wordCount } from "./untrusted-input/word-count-tool.js";

/** What the budgeted tool and the custom tool answered, and the messages of what they refused. */
export interface UntrustedInputOutcome {
  title: unknown;
  rangeRefused: string;
  wordCount: string;
  wordRefused: string;
}

/** The message of the error a call fails with ("" when it does not fail). */
async function refusal(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "",
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

/** Runs the page's budget snippet and its custom tool; returns what they did. */
export async function main(): Promise<UntrustedInputOutcome> {
  const context = createContext();
  // #region budget
  const budget = createBudget({ timeoutMs: 500, maxMemoryMb: 64 });
  await context.addRoutes(new XPathTool({ budget, timeoutMs: 500 }));
  // #endregion budget
  await context.start();
  try {
    return {
      title: await context.request("direct:llm.xpath", { xml: "<r><a>1</a></r>", xpath: "string(//a)" }),
      rangeRefused: await refusal(
        context.request("direct:llm.xpath", { xml: "<r/>", xpath: "count(1 to 100000000)" }),
      ),
      wordCount: await wordCount({ text: "to be or not to be", word: "be" }),
      wordRefused: await refusal(wordCount({ text: "x", word: "a.*" })),
    };
  } finally {
    await context.stop();
    await budget.close();
    await sharedBudget().close();
  }
}

/** A lane per tenant (docs/guide/budget-fairness.md): one tenant's slow jobs cannot take every worker. */
export async function scoreInTenantLane(
  scoreTask: BudgetTask<{ text: string }, number>,
  input: { text: string },
  tenantId: string,
): Promise<void> {
  // #region lane-per-tenant
  const budget = createBudget({ maxWorkers: 4 });
  await budget.run(scoreTask, input, { lane: `tenant:${tenantId}` });
  // #endregion lane-per-tenant
  await budget.close();
}
