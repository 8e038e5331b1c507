import { syntaxError } from "./expression-errors.js";
import type { SimpleToken } from "./simple-lexer.js";

/** Whether `token` is the keyword `word` (keywords are case-insensitive). */
export function isWord(token: SimpleToken, word: string): boolean {
  return token.kind === "identifier" && token.value.toLowerCase() === word;
}

/** Whether `token` is the punctuation `symbol`. */
export function isSymbol(token: SimpleToken, symbol: string): boolean {
  return token.kind === "punctuation" && token.value === symbol;
}

function describeToken(token: SimpleToken): string {
  if (token.kind === "end") return "the end of the expression";
  if (token.kind === "string") return "a string";
  if (token.kind === "number") return `number ${token.value}`;
  return JSON.stringify(token.value);
}

/** A cursor over the tokens of one expression, with errors that name the expression and the column. */
export class TokenStream {
  readonly text: string;
  readonly #tokens: readonly SimpleToken[];
  #index = 0;

  constructor(text: string, tokens: readonly SimpleToken[]) {
    this.text = text;
    this.#tokens = tokens;
  }

  peek(offset = 0): SimpleToken {
    const last = this.#tokens.length - 1;
    const token = this.#tokens[Math.min(this.#index + offset, last)];
    if (token === undefined) throw new Error("simple parser: no tokens");
    return token;
  }

  next(): SimpleToken {
    const token = this.peek();
    if (this.#index < this.#tokens.length - 1) this.#index++;
    return token;
  }

  expectSymbol(symbol: string, detail: string): SimpleToken {
    const token = this.peek();
    if (!isSymbol(token, symbol)) throw this.error(detail, token);
    return this.next();
  }

  /** A syntax error at `token`, saying what was found there. */
  error(detail: string, token: SimpleToken) {
    return syntaxError(this.text, detail, token.start, describeToken(token));
  }
}
