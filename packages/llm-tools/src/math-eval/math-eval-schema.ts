/** JSON Schema of the math_eval tool input (one expression). */
export const MATH_EVAL_INPUT_SCHEMA = {
  type: "object",
  properties: {
    expression: {
      type: "string",
      description:
        "An expression such as 2 * (3 + 4), sqrt(2) ^ 2, 5 cm to inch, x > 3 AND x < 5 ? 1 : 0, " +
        "or several statements separated by ';' (the last one's value is returned).",
    },
  },
  required: ["expression"],
  additionalProperties: false,
} as const;
