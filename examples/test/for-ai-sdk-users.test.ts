import { it } from "vitest";

// docs/guide/for-ai-sdk-users.md: its example runs as the page says (a scripted model stands in for OpenAI).
it("for-ai-sdk-users: a typed tool, the tool loop, structured output, typed calls and the schema at the door", async () => {
  const { main } = await import("../docs/for-ai-sdk-users.js");
  await main();
});
