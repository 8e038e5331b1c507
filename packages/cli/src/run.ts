// The `routekit` command's entry: runs `main` with the process's arguments and exits with its code.
import { main } from "./main.js";

process.exitCode = await main(process.argv.slice(2));
// Open handles a user's routes left behind (timers, sockets) must not keep a finished command alive.
setTimeout(() => process.exit(), 1_000).unref();
