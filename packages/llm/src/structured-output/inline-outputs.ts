import type { StructuredOutput } from "./structured-output.js";

// Outputs given inline to `llm(model).output(schema)` travel in the step's URI as `output=inline.N`
// (a name no registered schema can have: registered names have no '.'). One entry per
// StructuredOutput made by a builder, kept for the life of the process like the routes using it.
const byId = new Map<string, StructuredOutput>();
const ids = new WeakMap<StructuredOutput, string>();

/** The URI name of an inline output, the same each time for the same output. */
export function inlineOutputId(output: StructuredOutput): string {
  let id = ids.get(output);
  if (id === undefined) {
    id = `inline.${byId.size + 1}`;
    ids.set(output, id);
    byId.set(id, output);
  }
  return id;
}

/** The inline output behind a URI name, if it is one. */
export function inlineOutput(id: string): StructuredOutput | undefined {
  return byId.get(id);
}
