// @routekit/mcp/cli: what the `routekit` command reuses — the routes-module loader and this
// package's `routekit-mcp` command line (`routekit mcp ...`).
export { type LoadedRoutes, type LoadRoutesOptions, loadRoutes } from "./load-routes.js";
export { main as mcpMain } from "./main.js";
