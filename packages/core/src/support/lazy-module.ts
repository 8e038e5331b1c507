import { createRequire } from "node:module";

/**
 * A module loaded on first call instead of at import, through `require` from `from` (a module's
 * `import.meta.url`): for heavy engines (XML, regular expressions, JSONPath, worker threads) that
 * only some routes use, so importing routekit does not pay for them. The function stays
 * synchronous, as the APIs that call it are; a package loaded this way must ship CommonJS (or be
 * one of Node's own modules).
 */
export function lazyModule<T>(specifier: string, from: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= createRequire(from)(specifier) as T;
    return loaded;
  };
}
