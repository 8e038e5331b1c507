/**
 * What routekit's own packages add to a context and to the DSL, so that using one without its
 * package says which package to install and how to wire it, instead of a bare "unknown scheme" or
 * "is not a function".
 */

interface FirstPartyScheme {
  readonly packageName: string;
  readonly setup: string;
}

const schemes: Record<string, FirstPartyScheme> = {
  llm: { packageName: "@routekit/llm", setup: "context.use(llmPlugin({ models: { name: provider } }))" },
  amqp: { packageName: "@routekit/amqp", setup: 'context.use(amqpPlugin({ url: "amqp://host" }))' },
  http: { packageName: "@routekit/http", setup: "context.use(httpPlugin({ port }))" },
  https: { packageName: "@routekit/http", setup: "context.use(httpPlugin({ port }))" },
};

const steps: Record<string, string> = {
  asLlmTool: "@routekit/llm",
  httpFetch: "@routekit/llm-tools",
  jsonPath: "@routekit/llm-tools",
  xpath: "@routekit/llm-tools",
  regexExtract: "@routekit/llm-tools",
  mathEval: "@routekit/llm-tools",
  tavilyWebSearch: "@routekit/llm-tools",
};

/** For a scheme a first-party package provides: which package and how to add it; else "". */
export function firstPartySchemeHint(scheme: string): string {
  const known = Object.hasOwn(schemes, scheme) ? schemes[scheme] : undefined;
  if (known === undefined) return "";
  return `; '${scheme}:' endpoints come from ${known.packageName}: install it, import it and add ${known.setup}`;
}

/** The first-party package that adds DSL verb `name`, or undefined when none does. */
export function firstPartyStepPackage(name: string): string | undefined {
  return Object.hasOwn(steps, name) ? steps[name] : undefined;
}
