import type { CheckpointRecord, CheckpointStore } from "@routekit/core";
import { expect, it } from "vitest";

function record(id: string, version: number, status: string, leaseUntil?: number): CheckpointRecord {
  return {
    id,
    version,
    status,
    owner: leaseUntil === undefined ? undefined : "instance-a",
    leaseUntil,
    updatedAt: 1_000 + version,
    state: { step: version, text: `état ${id} "quoted" \u2028` },
  };
}

/** What every checkpoint store does, run against a store made fresh by `make` for each test. */
export function checkpointStoreContract(make: () => Promise<CheckpointStore>): void {
  it("writes a record only over the version it read, and reads back what was written", async () => {
    const store = await make();
    expect(await store.get("r1")).toBeUndefined();
    expect(await store.write(record("r1", 2, "running"))).toBe(false);
    expect(await store.write(record("r1", 1, "running", 5_000))).toBe(true);
    expect(await store.write(record("r1", 1, "running", 5_000))).toBe(false);
    expect(await store.write(record("r1", 2, "parked"))).toBe(true);
    expect(await store.get("r1")).toEqual({
      ...record("r1", 2, "parked"),
      owner: undefined,
      leaseUntil: undefined,
    });
    const stored = await store.get("r1");
    expect(stored?.state).toEqual({ step: 2, text: `état r1 "quoted" \u2028` });
  });

  it("lets exactly one of two writers over the same version through", async () => {
    const store = await make();
    await store.write(record("r2", 1, "running"));
    const results = await Promise.all([
      store.write(record("r2", 2, "running")),
      store.write(record("r2", 2, "parked")),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.get("r2"))?.version).toBe(2);
  });

  it("lists by status and by lease end", async () => {
    const store = await make();
    await store.write(record("a", 1, "running", 1_000));
    await store.write(record("b", 1, "running", 9_000));
    await store.write(record("c", 1, "parked"));
    await store.write(record("d", 1, "completed"));
    const ids = (records: CheckpointRecord[]) => records.map((each) => each.id).sort();
    expect(ids(await store.list({ status: "running" }))).toEqual(["a", "b"]);
    expect(ids(await store.list({ status: "running", leaseExpiredBefore: 5_000 }))).toEqual(["a"]);
    expect(ids(await store.list({ status: "parked" }))).toEqual(["c"]);
    expect(ids(await store.list())).toEqual(["a", "b", "c", "d"]);
    expect(await store.list({ limit: 2 })).toHaveLength(2);
    // A record that changes status leaves its old place in the lists.
    await store.write(record("a", 2, "completed"));
    expect(ids(await store.list({ status: "running" }))).toEqual(["b"]);
    await store.remove("b");
    expect(await store.get("b")).toBeUndefined();
    expect(ids(await store.list({ status: "running" }))).toEqual([]);
  });
}
