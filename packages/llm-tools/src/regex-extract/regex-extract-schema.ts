/** JSON Schema of the regex_extract tool input (text, pattern, group, all). */
export const REGEX_EXTRACT_INPUT_SCHEMA = {
  type: "object",
  properties: {
    text: { type: "string", description: "The text to search." },
    pattern: {
      type: "string",
      description:
        "A regular expression in JavaScript/RE2 syntax, without slashes. Named groups: (?<name>...). " +
        "Flags: a leading (?i), (?m) or (?s).",
    },
    group: {
      type: ["string", "integer"],
      description: "The capture group to return: a number or a group name. 0 or omitted: the whole match.",
    },
    all: {
      type: "boolean",
      description: "true: return every match as an array (at most 64). Default: only the first match.",
    },
  },
  required: ["text", "pattern"],
  additionalProperties: false,
} as const;
