import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { type LanguageModel, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { runAllowedProgram, shellInputSchema } from "./shell-tool.js";

const ALLOWED_PROGRAMS = ["ls", "wc", "date", "uname"] as const;

/** OpenAI (or any OpenAI-compatible server) with a key; otherwise a scripted model. */
function chooseModel(): { model: LanguageModel; scripted: boolean } {
  if (process.env.OPENAI_API_KEY !== undefined && process.env.OPENAI_API_KEY !== "") {
    return { model: openAiChat({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini" }), scripted: false };
  }
  const model = scriptedModel([
    { toolCalls: [{ name: "shell", arguments: { program: "ls", args: ["-1"] } }] },
    (request) => {
      const last = request.messages.at(-1);
      const output = last?.role === "tool" ? (last.results[0]?.output ?? "") : "";
      const files = (JSON.parse(output) as { stdout?: string }).stdout?.trim().split("\n") ?? [];
      return { text: `The working directory holds ${files.length} files: ${files.join(", ")}.` };
    },
  ]);
  return { model, scripted: true };
}

async function main(): Promise<void> {
  const workingDirectory = await mkdtemp(join(tmpdir(), "routekit-http-shell-"));
  await writeFile(join(workingDirectory, "notes.txt"), "routekit runs routes\n");
  await writeFile(join(workingDirectory, "todo.txt"), "write docs\nship\n");

  const { model, scripted } = chooseModel();
  console.log(
    scripted
      ? "No OPENAI_API_KEY: using a SCRIPTED model that calls the shell tool once (no real LLM)."
      : `Using OpenAI-compatible model ${model.model}.`,
  );

  const context = createContext({ logLevel: "warn" });
  context.use(httpPlugin({ port: 0, requestTimeoutMs: 60_000 }));
  context.use(llmPlugin({ models: { assistant: model } }));

  await context.addRoutes((r) => {
    r.from("direct:llm.shell")
      .routeId("shell-tool")
      .asLlmTool("shell", {
        description: `Run one program in the project's working directory. Allowed: ${ALLOWED_PROGRAMS.join(", ")}. Arguments are passed as a list, never through a shell.`,
        input: shellInputSchema(ALLOWED_PROGRAMS),
      })
      .process(runAllowedProgram({ allowedPrograms: ALLOWED_PROGRAMS, workingDirectory, timeoutMs: 5_000 }));

    r.from("http:/ask?httpMethodRestrict=POST")
      .routeId("ask")
      .setBody((exchange) => String((exchange.body as { question?: unknown }).question ?? ""))
      .to(
        llm("assistant")
          .tools("shell")
          .maxIterations(4)
          .systemPrompt("Answer questions about the working directory using the shell tool.")
          .includeContent()
          .uri(),
      )
      .setBody((exchange) => ({ answer: exchange.body }));
  });

  context.events.on("tool-call-started", (event) => {
    console.log(`tool call  ${event.toolName} ${event.arguments ?? ""}`);
  });
  context.events.on("tool-call-completed", (event) => {
    console.log(`tool reply ${event.toolName} in ${Math.round(event.durationMs)} ms: ${event.output ?? ""}`);
  });

  await context.start();
  try {
    const url = `${httpServerOf(context).url}/ask`;
    console.log(`POST ${url}`);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "Which files are in the working directory?" }),
    });
    const reply = (await response.json()) as { answer?: string; error?: string };
    console.log(`HTTP ${response.status}: ${reply.answer ?? reply.error}`);
    if (!response.ok) process.exitCode = 1;
  } finally {
    await context.stop();
    await rm(workingDirectory, { recursive: true, force: true });
  }
}

await main();
