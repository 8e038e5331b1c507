// Keywords whose value maps names to schemas: their keys are property names, never keywords.
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const MAX_REMOVED = 32;

/**
 * Runs `make(schema)`; when it fails because the schema uses a keyword routekit's validator does not
 * know (servers' schemas often carry OpenAPI's `example`, vendor `x-...` keys), removes that
 * keyword wherever it appears as a keyword and tries again. Other failures are thrown.
 */
export function withKnownKeywords<TResult>(
  schema: Record<string, unknown>,
  make: (schema: Record<string, unknown>) => TResult,
): TResult {
  let current = schema;
  for (let removed = 0; ; removed++) {
    try {
      return make(current);
    } catch (error) {
      const keyword = /unknown keyword: "([^"]+)"/.exec(error instanceof Error ? error.message : "")?.[1];
      if (keyword === undefined || removed >= MAX_REMOVED) throw error;
      current = without(current, keyword) as Record<string, unknown>;
    }
  }
}

function without(value: unknown, keyword: string): unknown {
  if (Array.isArray(value)) return value.map((item) => without(item, keyword));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === keyword) continue;
    copy[key] = NAME_MAPS.has(key) ? mapValues(child, keyword) : without(child, keyword);
  }
  return copy;
}

function mapValues(value: unknown, keyword: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, without(child, keyword)]));
}
