import type { StepDefinition } from "@routekit/core";

/** A step as the graph draws it: plain JSON, with its nested blocks. */
export interface StepShape {
  readonly type: string;
  readonly label: string;
  /** The step's path, as counters and step events name it (when the console saw it compiled). */
  readonly path: string | undefined;
  /** The endpoint it sends to, for `to`, `wireTap`, `enrich` (query values that look secret hidden). */
  readonly uri?: string;
  /** Its other options, rendered as short text. */
  readonly options: Readonly<Record<string, string>>;
  readonly blocks: readonly StepBlock[];
}

/** A nested block of a step: `when ...`, `otherwise`, `catch ...`, a split's steps. */
export interface StepBlock {
  readonly name: string;
  readonly steps: readonly StepShape[];
}

const SECRET_OPTION = /pass|secret|token|key|auth|credential/i;
const OPTION_CHARS = 120;

/** A URI with the values of options that look like credentials replaced by `***`. */
export function safeUri(uri: string): string {
  const question = uri.indexOf("?");
  if (question === -1) return uri;
  const query = uri
    .slice(question + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_OPTION.test(name) && equals !== -1 ? `${name}=***` : pair;
    })
    .join("&");
  return `${uri.slice(0, question)}?${query}`;
}

function isStep(value: unknown): value is StepDefinition {
  return (
    typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
  );
}

function isStepList(value: unknown): value is StepDefinition[] {
  return Array.isArray(value) && value.length > 0 && value.every(isStep);
}

function text(value: unknown): string | undefined {
  if (typeof value === "string")
    return value.length > OPTION_CHARS ? `${value.slice(0, OPTION_CHARS)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "function") return value.name === "" ? "ƒ" : `ƒ ${value.name}`;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
  return undefined;
}

function errorNames(errors: unknown): string {
  if (!Array.isArray(errors)) return "";
  return errors.map((error) => (typeof error === "function" ? error.name : String(error))).join(" | ");
}

/**
 * The shape of a step definition, nested blocks included: every list of steps becomes a block,
 * choice branches and catch clauses too. `known` gives the path and label of a definition the
 * console saw compiled.
 */
export function stepShape(
  definition: StepDefinition,
  label: string,
  known: (definition: StepDefinition) => { readonly path: string; readonly label: string } | undefined,
): StepShape {
  const options: Record<string, string> = {};
  const blocks: StepBlock[] = [];
  const blockOf = (name: string, steps: readonly StepDefinition[]): StepBlock => ({
    name,
    steps: steps.map((step, index) => stepShape(step, known(step)?.label ?? labelOf(step, index), known)),
  });
  let uri: string | undefined;
  for (const [key, value] of Object.entries(definition)) {
    if (key === "type") continue;
    if (key === "uri" && typeof value === "string") uri = safeUri(value);
    else if (key === "uris" && Array.isArray(value))
      options.uris = value.map((item) => safeUri(String(item))).join(", ");
    else if (isStepList(value)) blocks.push(blockOf(key === "steps" ? "" : key, value));
    else if (key === "branches" && Array.isArray(value)) {
      for (const branch of value as Array<{ predicate: unknown; steps: StepDefinition[] }>) {
        blocks.push(blockOf(`when ${text(branch.predicate) ?? ""}`, branch.steps));
      }
    } else if (key === "catches" && Array.isArray(value)) {
      for (const clause of value as Array<{ errors: unknown; steps: StepDefinition[] }>) {
        blocks.push(blockOf(`catch ${errorNames(clause.errors)}`, clause.steps));
      }
    } else {
      const rendered = text(value);
      if (rendered !== undefined) options[key] = SECRET_OPTION.test(key) ? "***" : rendered;
    }
  }
  const shape: StepShape = { type: definition.type, label, path: known(definition)?.path, options, blocks };
  return uri === undefined ? shape : { ...shape, uri };
}

/** `#2 to(mock:a)`: the label core gives a step, enough for nested ones the console did not see. */
function labelOf(step: StepDefinition, index: number): string {
  const uri = (step as { uri?: unknown }).uri;
  return typeof uri === "string"
    ? `#${index + 1} ${step.type}(${safeUri(uri)})`
    : `#${index + 1} ${step.type}`;
}

/** Every static endpoint URI a step and its blocks send to. */
export function urisOf(shape: StepShape): string[] {
  const uris: string[] = [];
  if (shape.uri !== undefined) uris.push(shape.uri);
  if (shape.options.uris !== undefined) uris.push(...shape.options.uris.split(", "));
  if (shape.options.deadLetterUri !== undefined) uris.push(shape.options.deadLetterUri);
  for (const block of shape.blocks) for (const step of block.steps) uris.push(...urisOf(step));
  return uris;
}
