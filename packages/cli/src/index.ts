// @routekit/cli: the `routekit` command. Its API is the command line; `main` runs it in-process
// (what the bin does), `formatDescription` prints `context.describe()` as text, JSON or Mermaid.
export { formatDescription } from "./describe-routes.js";
export { CLI_VERSION, main } from "./main.js";
export type { Command, DescribeFormat } from "./parse-command.js";
