import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserAvailable, listening, skipForMissing, startLoopbackServer } from "../src/index.js";
import { SKIP_RECORD_VARIABLE } from "../src/skip-record.js";

const record = join(tmpdir(), `routekit-skip-test-${process.pid}.jsonl`);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(record, { force: true });
});

describe("what a test does when a service is missing", () => {
  it("throws with CI=true, naming what is missing and how to start it", () => {
    vi.stubEnv("CI", "true");
    expect(() =>
      skipForMissing("Redis on 127.0.0.1:1", "`bash .ci/start-services.sh`", "ECONNREFUSED"),
    ).toThrow(
      "Redis on 127.0.0.1:1 is not there and CI=true requires it (ECONNREFUSED); start it with `bash .ci/start-services.sh`",
    );
    expect(() => browserAvailable("/nonexistent/chromium")).toThrow(/Chromium at \/nonexistent\/chromium/);
  });

  it("otherwise says so in one line and records the skip for the end-of-run count", () => {
    vi.stubEnv("CI", "");
    vi.stubEnv(SKIP_RECORD_VARIABLE, record);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(browserAvailable("/nonexistent/chromium")).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no Chromium at /nonexistent/chromium"));
    const lines = readFileSync(record, "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        testFile: expect.stringMatching(/services\.test\.ts$/),
        missing: "Chromium at /nonexistent/chromium",
      },
    ]);
  });

  it("probes a loopback port: open while a server listens, closed once it stopped", async () => {
    const server = await startLoopbackServer();
    expect(await listening(server.port)).toBe(true);
    await server.close();
    expect(await listening(server.port)).toBe(false);
  });
});
