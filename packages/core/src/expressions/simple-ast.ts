/** The exchange fields a simple expression can start from. */
export type RootName =
  | "body"
  | "headers"
  | "properties"
  | "exchangeId"
  | "routeId"
  | "fromEndpoint"
  | "exception"
  | "exchangePattern";

export type ArithmeticOperator = "+" | "-" | "*" | "/" | "%";
export type ComparisonOperator = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type LogicalOperator = "&&" | "||" | "??";
export type TextMatchOperator = "contains" | "startsWith" | "endsWith";

/** A node of the simple-language syntax tree; `start` is the 0-based offset of the node's operator or first token. */
export type SimpleNode =
  | { readonly kind: "literal"; readonly value: unknown; readonly start: number }
  | { readonly kind: "root"; readonly name: RootName; readonly start: number }
  | { readonly kind: "member"; readonly object: SimpleNode; readonly key: string; readonly start: number }
  | {
      readonly kind: "index";
      readonly object: SimpleNode;
      readonly index: SimpleNode;
      readonly start: number;
    }
  | {
      readonly kind: "call";
      readonly name: string;
      readonly args: readonly SimpleNode[];
      readonly start: number;
    }
  | { readonly kind: "negate"; readonly operand: SimpleNode; readonly start: number }
  | { readonly kind: "not"; readonly operand: SimpleNode; readonly start: number }
  | {
      readonly kind: "arithmetic";
      readonly operator: ArithmeticOperator;
      readonly left: SimpleNode;
      readonly right: SimpleNode;
      readonly start: number;
    }
  | {
      readonly kind: "comparison";
      readonly operator: ComparisonOperator;
      readonly left: SimpleNode;
      readonly right: SimpleNode;
      readonly start: number;
    }
  | {
      readonly kind: "logical";
      readonly operator: LogicalOperator;
      readonly left: SimpleNode;
      readonly right: SimpleNode;
      readonly start: number;
    }
  | {
      readonly kind: "conditional";
      readonly test: SimpleNode;
      readonly consequent: SimpleNode;
      readonly alternate: SimpleNode;
      readonly start: number;
    }
  | {
      readonly kind: "membership";
      readonly value: SimpleNode;
      /** `IN (a, b)` lists its items; `IN expression` has one item that must yield an array or "a,b" text. */
      readonly items: readonly SimpleNode[];
      readonly parenthesized: boolean;
      readonly negated: boolean;
      readonly start: number;
    }
  | {
      readonly kind: "text-match";
      readonly operator: TextMatchOperator;
      readonly left: SimpleNode;
      readonly right: SimpleNode;
      readonly negated: boolean;
      readonly start: number;
    }
  | {
      readonly kind: "regex";
      readonly value: SimpleNode;
      /** Tests whether a whole text matches (re2js: linear time in the text's length). */
      readonly pattern: { matches(text: string): boolean };
      readonly negated: boolean;
      readonly start: number;
    };

/** A parsed template: literal text and expressions in order. */
export type TemplatePart = string | SimpleNode;
