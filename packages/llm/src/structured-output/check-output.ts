import { messageOf } from "@routekit/core/internal";
import type { SchemaIssue } from "../errors.js";
import { compileSchema } from "../schema/compile-schema.js";
import { describeIssues, toSchemaIssue } from "../schema/standard-validation.js";
import { issuesOf } from "../schema/validate-arguments.js";
import type { StructuredOutput } from "./structured-output.js";

/** The outcome of checking a model's answer against its structured output. */
export type OutputCheck =
  | { ok: true; value: unknown }
  | { ok: false; issues: SchemaIssue[]; message: string };

/**
 * Checks an answer (JSON text, or the object an answer tool call carried) against the schema:
 * JSON parse, then the JSON Schema (defaults filled in), then the Standard Schema's own validate.
 */
export async function checkOutput(output: StructuredOutput, answer: unknown): Promise<OutputCheck> {
  let value = answer;
  if (typeof answer === "string") {
    try {
      value = JSON.parse(withoutCodeFence(answer));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failure([{ path: "", message: `is not valid JSON (${reason})` }]);
    }
  }
  const validate = compileSchema(output.schema, output.name);
  const copy: unknown = structuredClone(value);
  if (!validate(copy)) return failure(issuesOf(validate.errors));
  if (output.standard === undefined) return { ok: true, value: copy };
  try {
    const outcome = await output.standard["~standard"].validate(copy);
    if (outcome.issues !== undefined) return failure(outcome.issues.map(toSchemaIssue));
    return { ok: true, value: outcome.value };
  } catch (error) {
    const reason = messageOf(error);
    return failure([{ path: "", message: `the schema failed while validating: ${reason}` }]);
  }
}

function failure(issues: SchemaIssue[]): OutputCheck {
  return { ok: false, issues, message: describeIssues(issues) };
}

/** Models often wrap JSON in a Markdown code fence; the fence is not part of the answer. */
function withoutCodeFence(text: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}
