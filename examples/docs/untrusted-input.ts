// The code of docs/guide/untrusted-input.md; run by examples/test/docs-examples.test.ts.
import assert from "node:assert/strict";
import { type BudgetTask, createBudget, createContext, sharedBudget } from "@routekit/core";
import { XPathTool } from "@routekit/llm-tools";
import { wordCount } from "./untrusted-input/word-count-tool.js";

/** Runs the page's budget snippet and its custom tool, and checks what the page says. */
export async function main(): Promise<void> {
  const context = createContext();
  // #region budget
  const budget = createBudget({ timeoutMs: 500, maxMemoryMb: 64 });
  await context.addRoutes(new XPathTool({ budget, timeoutMs: 500 }));
  // #endregion budget
  await context.start();
  try {
    const title = await context.request("direct:llm.xpath", { xml: "<r><a>1</a></r>", xpath: "string(//a)" });
    assert.equal(title, "1");
    await assert.rejects(
      context.request("direct:llm.xpath", { xml: "<r/>", xpath: "count(1 to 100000000)" }),
      /a range \(a to b\) at column 9 is not accepted from an untrusted source/,
    );
    assert.equal(await wordCount({ text: "to be or not to be", word: "be" }), '{"word":"be","count":2}');
    await assert.rejects(wordCount({ text: "x", word: "a.*" }), /must be 1 to 40 letters/);
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
