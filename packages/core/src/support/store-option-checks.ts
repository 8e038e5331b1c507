/** Names of store repositories and key prefixes: letters, digits, `.`, `_`, `-` (1 to 100). */
export const STORE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The option checks routekit's shared stores (redis, postgres) make, each error in the store's own class. */
export interface StoreOptionChecks {
  /** "<what> must be <expected>, found <found>" as the store's error. */
  invalid(what: string, expected: string, found: unknown): Error;
  /** Refuses any key of `options` not in `known`, naming the known ones. */
  checkKnown(where: string, options: object, known: readonly string[]): void;
  /** A whole number option of `where` at least `minimum`; undefined gives `fallback`. */
  checkInteger(where: string, name: string, value: unknown, fallback: number, minimum: number): number;
  /** A repository name (it becomes part of keys or rows). */
  checkName(where: string, name: unknown): string;
}

/** The checks, with `errorOf` making the store's error of a message. */
export function storeOptionChecks(errorOf: (message: string) => Error): StoreOptionChecks {
  const invalid = (what: string, expected: string, found: unknown): Error =>
    errorOf(
      `${what} must be ${expected}, found ${typeof found === "string" ? JSON.stringify(found) : String(found)}`,
    );
  return {
    invalid,
    checkKnown(where, options, known) {
      for (const key of Object.keys(options)) {
        if (!known.includes(key))
          throw invalid(`${where} option '${key}'`, `one of ${known.join(", ")}`, key);
      }
    },
    checkInteger(where, name, value, fallback, minimum) {
      if (value === undefined) return fallback;
      if (typeof value !== "number" || !Number.isInteger(value) || value < minimum) {
        throw invalid(`${where} option '${name}'`, `an integer >= ${minimum}`, value);
      }
      return value;
    },
    checkName(where, name) {
      if (typeof name !== "string" || !STORE_NAME_PATTERN.test(name)) {
        throw invalid(`${where} name`, "1-100 letters, digits, '.', '_' or '-'", name);
      }
      return name;
    },
  };
}
