/** Header templates expanded for one call, and the secrets that must be kept out of messages. */
export interface ExpandedHeaders {
  headers: Record<string, string>;
  /** Every value taken from the environment, for redaction. */
  secrets: string[];
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands `${NAME}` in header values from the environment, at call time. A variable that is
 * not set is a problem (returned as a string naming the header and the variable, never a value).
 */
export function expandHeaders(
  templates: Readonly<Record<string, string>>,
  environment: NodeJS.ProcessEnv = process.env,
): ExpandedHeaders | string {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [name, template] of Object.entries(templates)) {
    let missing: string | undefined;
    headers[name] = template.replace(VARIABLE, (_, variable: string) => {
      const value = environment[variable];
      if (value === undefined) {
        missing ??= variable;
        return "";
      }
      if (value !== "") secrets.push(value);
      return value;
    });
    if (missing !== undefined) {
      return `header '${name}' uses \${${missing}}, but the environment variable ${missing} is not set`;
    }
  }
  return { headers, secrets };
}
