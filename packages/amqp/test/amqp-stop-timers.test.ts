import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { brokerAvailable, uniqueName } from "./support/broker.js";

// A stopped context leaves nothing of the amqp component that keeps the process alive: the wait
// for in-flight deliveries is bounded by a timer, which must end with the wait (it kept a process
// alive for the whole bound, 10 s, after everything else was released).

const script = fileURLToPath(new URL("./support/stop-and-exit.ts", import.meta.url));
const packageRoot = fileURLToPath(new URL("..", import.meta.url));

describe.skipIf(!brokerAvailable)("amqp: stopping", () => {
  it("leaves nothing that keeps the process alive once the context has stopped", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", script, uniqueName("stop-and-exit")],
      { cwd: packageRoot, timeout: 30_000 },
    );
    expect(stdout).toBe("stopped\n");
  }, 40_000);
});
