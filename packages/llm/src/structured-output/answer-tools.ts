import { LlmError } from "../errors.js";
import type { Tool } from "../tool-types.js";
import { answerToolStandIn } from "./read-answer.js";
import type { StructuredOutput } from "./structured-output.js";

/** The tools a run dispatches to with structured output: the step's tools plus the answer tool's stand-in. */
export function withAnswerTool(
  tools: ReadonlyMap<string, Tool>,
  output: StructuredOutput,
): Map<string, Tool> {
  if (tools.has(output.name)) {
    throw new LlmError(
      "OPTION_INVALID",
      `runToolLoop: the structured output is named '${output.name}', like one of the tools: give the output another name`,
    );
  }
  return new Map([...tools, [output.name, answerToolStandIn(output)]]);
}
