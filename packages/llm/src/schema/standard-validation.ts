import { messageOf, truncateForMessage } from "@routekit/core/internal";
import type { SchemaIssue } from "../errors.js";
import type { Tool } from "../tool-types.js";
import type { StandardSchemaV1, StandardSchemaV1Issue, StandardSchemaV1Result } from "./standard-schema.js";

/** The outcome of validating tool arguments; a failure lists every issue and says them all in `message`. */
export type ArgumentsValidation =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; issues: SchemaIssue[] };

const standardSchemas = new WeakMap<Tool, StandardSchemaV1>();
const asynchronousSchemas = new WeakSet<StandardSchemaV1>();

/** Records that `tool`'s arguments are also checked by this Standard Schema's own `validate`. */
export function attachStandardSchema(tool: Tool, schema: StandardSchemaV1): void {
  standardSchemas.set(tool, schema);
}

/** The Standard Schema attached to `tool`, if any. */
export function standardSchemaOf(tool: Tool): StandardSchemaV1 | undefined {
  return standardSchemas.get(tool);
}

/**
 * Runs the Standard Schema's `validate` when it answers synchronously. A schema seen answering
 * with a promise is skipped here (undefined) and checked by `validateWithStandardSchema` instead.
 */
export function validateWithStandardSchemaNow(
  tool: Tool,
  schema: StandardSchemaV1,
  value: Record<string, unknown>,
): ArgumentsValidation | undefined {
  if (asynchronousSchemas.has(schema)) return undefined;
  let outcome: ReturnType<StandardSchemaV1["~standard"]["validate"]>;
  try {
    outcome = schema["~standard"].validate(value);
  } catch (error) {
    return failedToRun(tool, error);
  }
  if (outcome instanceof Promise) {
    asynchronousSchemas.add(schema);
    outcome.catch(() => undefined);
    return undefined;
  }
  return fromOutcome(tool, outcome);
}

/** Runs the Standard Schema's `validate`, waiting for it when it is asynchronous. */
export async function validateWithStandardSchema(
  tool: Tool,
  schema: StandardSchemaV1,
  value: Record<string, unknown>,
): Promise<ArgumentsValidation> {
  try {
    return fromOutcome(tool, await schema["~standard"].validate(value));
  } catch (error) {
    return failedToRun(tool, error);
  }
}

function failedToRun(tool: Tool, error: unknown): ArgumentsValidation {
  const reason = messageOf(error);
  const message = `the input schema of tool '${tool.name}' failed while validating: ${reason}`;
  return { ok: false, message, issues: [{ path: "", message: `schema failed while validating: ${reason}` }] };
}

function fromOutcome(tool: Tool, outcome: StandardSchemaV1Result<unknown>): ArgumentsValidation {
  if (outcome.issues !== undefined) {
    const issues = outcome.issues.map(toSchemaIssue);
    return {
      ok: false,
      message: `invalid arguments for tool '${tool.name}': ${describeIssues(issues)}`,
      issues,
    };
  }
  const value = outcome.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const reason = `its schema produced ${typeof value}, not an object`;
    return {
      ok: false,
      message: `invalid arguments for tool '${tool.name}': ${reason}`,
      issues: [{ path: "", message: reason }],
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** A Standard Schema issue as a `SchemaIssue` (its path as a JSON Pointer). */
export function toSchemaIssue(issue: StandardSchemaV1Issue): SchemaIssue {
  if (issue.path === undefined || issue.path.length === 0) return { path: "", message: issue.message };
  const pointer = issue.path
    .map((segment) => {
      const key = typeof segment === "object" && segment !== null ? segment.key : segment;
      return `/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
    })
    .join("");
  return { path: pointer, message: issue.message };
}

/** Issues as one text: `/a must be number; /b is required` (a repeated line said once). */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  // Paths are made of the caller's keys: each is cut, and only the first issues are spelt out.
  const lines = issues
    .slice(0, MAX_DESCRIBED_ISSUES)
    .map((issue) =>
      issue.path === ""
        ? truncateForMessage(issue.message, 300)
        : `${truncateForMessage(issue.path)} ${truncateForMessage(issue.message, 300)}`,
    );
  const more =
    issues.length > MAX_DESCRIBED_ISSUES ? `; and ${issues.length - MAX_DESCRIBED_ISSUES} more` : "";
  return [...new Set(lines)].join("; ") + more;
}

/** Issues spelt out in a message; the rest are counted. */
const MAX_DESCRIBED_ISSUES = 20;
