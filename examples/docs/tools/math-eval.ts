// The code of docs/tools/math-eval.md; run by examples/test/docs-examples.test.ts.
import { createContext, RouteBuilder } from "@routekit/core";
import { MATH_EVAL_INPUT_SCHEMA, MathEvalTool, runMathEval } from "@routekit/llm-tools";

class PriceRoutes extends RouteBuilder {
  configure() {
    // #region step
    this.from("direct:price")
      .setBody("${body.quantity} * ${body.unitPrice} * 1.2")
      .mathEval() // body: "36"
      .to("mock:priced");
    // #endregion step
    // #region value
    this.from("direct:total")
      .setBody("${body.quantity} * ${body.unitPrice}")
      .mathEval<number>({ output: "value" }) // body: 30, a number
      .setBody((exchange) => exchange.body + 5)
      .to("mock:totals");
    // #endregion value
  }
}

/** What the page's engine calls returned, and the replies of the tool route, the wrapper and the steps. */
export interface MathEvalOutcome {
  engine: string[];
  toolRoute: unknown;
  wrapper: unknown;
  price: unknown;
  total: unknown;
}

/** Runs the page's engine calls, the tool route written by hand, the wrapper and the enrichment step. */
export async function main(): Promise<MathEvalOutcome> {
  // #region engine
  runMathEval({ expression: "2 * (3 + 4)" }); // "14"
  runMathEval("5 cm to inch"); // '"1.9685039370079 inch"' (text body = the expression)
  runMathEval("x = 4; x > 3 AND NOT (x > 5) ? 1 : 0"); // "1"
  runMathEval("det([[1, 2], [3, 4]])"); // "-2"
  runMathEval("1 / 0"); // "null"
  // #endregion engine
  const engine = [
    runMathEval({ expression: "2 * (3 + 4)" }),
    runMathEval("5 cm to inch"),
    runMathEval("x = 4; x > 3 AND NOT (x > 5) ? 1 : 0"),
    runMathEval("det([[1, 2], [3, 4]])"),
    runMathEval("1 / 0"),
  ];

  const context = createContext({ logLevel: "off" });
  // #region tool-route
  await context.addRoutes((r) => {
    r.from("direct:llm.math_eval")
      .asLlmTool("math_eval", {
        description: "Evaluate an arithmetic expression.",
        input: MATH_EVAL_INPUT_SCHEMA,
      })
      .mathEval({ timeoutMs: 500 });
  });
  await context.start();
  await context.request("direct:llm.math_eval", { expression: "2 * (3 + 4)" }); // "14"
  // #endregion tool-route
  const toolRoute = await context.request("direct:llm.math_eval", { expression: "2 * (3 + 4)" });
  await context.stop();

  {
    const context = createContext({ logLevel: "off" });
    // #region wrapper
    await context.addRoutes(new MathEvalTool({ timeoutMs: 500 }));
    // #endregion wrapper
    await context.addRoutes(new PriceRoutes());
    await context.start();
    try {
      return {
        engine,
        toolRoute,
        wrapper: await context.request("direct:llm.math_eval", { expression: "2 ^ 10" }),
        price: await context.request("direct:price", { quantity: 3, unitPrice: 10 }),
        total: await context.request("direct:total", { quantity: 3, unitPrice: 10 }),
      };
    } finally {
      await context.stop();
    }
  }
}
