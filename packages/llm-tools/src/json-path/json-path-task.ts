// The json_path job a budget worker runs (a module of its own: functions cannot cross threads).
import { checkJsonPath, checkUntrustedJsonPath } from "@routekit/core/internal";
import { reasonOf, ToolInputError } from "../errors.js";
import { parseDocumentText, queryDocument } from "./run-json-path.js";

/** One json_path job: the document's JSON text and a path, the route author's (`trusted`) or untrusted. */
export interface JsonPathJob {
  readonly documentText: string;
  readonly path: string;
  readonly trusted: boolean;
}

/** Parses the document, checks an untrusted path against the dialect again, and queries. */
export function jsonPathJob(job: JsonPathJob): string {
  let multiMatch: boolean;
  try {
    multiMatch = checkJsonPath(job.path).multiMatch;
    if (!job.trusted) checkUntrustedJsonPath(job.path);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError("json_path", `json_path: key 'path' is invalid: ${reason}`, "path");
  }
  return queryDocument(parseDocumentText(job.documentText), job.path, multiMatch);
}
