// The code of docs/tools/regex-extract.md; run by examples/test/docs-examples.test.ts.
import { createContext, RouteBuilder } from "@routekit/core";
import { REGEX_EXTRACT_INPUT_SCHEMA, RegexExtractTool, runRegexExtract } from "@routekit/llm-tools";

/** Needs a RabbitMQ broker: type-checked only. */
export class MailRoutes extends RouteBuilder {
  configure() {
    // #region step
    this.from("amqp:queue:mails")
      .regexExtract({ pattern: "[\\w.+-]+@[\\w-]+\\.[\\w.]+", all: true }) // body: the mail text
      .to("amqp:queue:addresses"); // body: '["ann@example.org"]'
    // #endregion step
  }
}

/** What the page's engine calls returned, and the replies of the tool route, the wrapper and the value step. */
export interface RegexExtractOutcome {
  engine: string[];
  toolRoute: unknown;
  wrapper: unknown;
  countIds: unknown[];
}

/** Runs the page's engine calls, the tool route written by hand and the wrapper. */
export async function main(): Promise<RegexExtractOutcome> {
  // #region engine
  await runRegexExtract({ text: "Order 123 and 456", pattern: "\\d+" }); // '"123"'
  await runRegexExtract({ text: "Order 123 and 456", pattern: "\\d+", all: true }); // '["123","456"]'
  await runRegexExtract({
    text: "from 2024-05 to 2025-11",
    pattern: "(?<year>\\d{4})-(?<month>\\d{2})",
    group: "month",
    all: true,
  }); // '["05","11"]'
  await runRegexExtract({ text: "no digits", pattern: "\\d+" }); // 'null'
  // #endregion engine
  const months = {
    text: "from 2024-05 to 2025-11",
    pattern: "(?<year>\\d{4})-(?<month>\\d{2})",
    group: "month",
  };
  const engine = [
    await runRegexExtract({ text: "Order 123 and 456", pattern: "\\d+" }),
    await runRegexExtract({ text: "Order 123 and 456", pattern: "\\d+", all: true }),
    await runRegexExtract({ ...months, all: true }),
    await runRegexExtract({ text: "no digits", pattern: "\\d+" }),
  ];

  const context = createContext({ logLevel: "off" });
  // #region tool-route
  await context.addRoutes((r) => {
    r.from("direct:llm.regex_extract")
      .asLlmTool("regex_extract", {
        description: "Extract text with a regular expression.",
        input: REGEX_EXTRACT_INPUT_SCHEMA,
      })
      .regexExtract({ matchTimeoutMs: 500 });
  });
  await context.start();
  await context.request("direct:llm.regex_extract", { text: "id=42", pattern: "id=(\\d+)", group: 1 }); // '"42"'
  // #endregion tool-route
  const toolRoute = await context.request("direct:llm.regex_extract", {
    text: "id=42",
    pattern: "id=(\\d+)",
    group: 1,
  });
  await context.stop();

  {
    const context = createContext({ logLevel: "off" });
    // #region wrapper
    await context.addRoutes(new RegexExtractTool({ matchTimeoutMs: 500 }));
    // #endregion wrapper
    // #region value
    await context.addRoutes((r) => {
      r.from("direct:count-ids")
        .regexExtract({ pattern: "[A-Z]-\\d+", all: true, output: "value" }) // body: ["A-17", "B-4"], or null
        .setBody((exchange) => exchange.body?.length ?? 0);
    });
    // #endregion value
    await context.start();
    try {
      return {
        engine,
        toolRoute,
        wrapper: await context.request("direct:llm.regex_extract", { text: "a1", pattern: "\\d" }),
        countIds: [
          await context.request("direct:count-ids", "order A-17 shipped, B-4 pending"),
          await context.request("direct:count-ids", "no orders"),
        ],
      };
    } finally {
      await context.stop();
    }
  }
}
