import { createRequire } from "node:module";

type MathJs = typeof import("mathjs");

const require = createRequire(import.meta.url);
let loaded: MathJs | undefined;

/**
 * mathjs, loaded on first use: loading it takes about a second, so importing @routekit/llm-tools
 * (for http_fetch, say) costs nothing until math_eval first runs.
 */
export function mathjs(): MathJs {
  loaded ??= require("mathjs") as MathJs;
  return loaded;
}
