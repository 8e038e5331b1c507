import { createRequire } from "node:module";

type Re2js = typeof import("re2js");

let loaded: Re2js | undefined;

/**
 * re2js, loaded when regex_extract first compiles a pattern, so importing @routekit/llm-tools does
 * not pay for it. Its CommonJS build, the copy core's `regex` operator loads too.
 */
export function re2js(): Re2js {
  loaded ??= createRequire(import.meta.url)("re2js") as Re2js;
  return loaded;
}
