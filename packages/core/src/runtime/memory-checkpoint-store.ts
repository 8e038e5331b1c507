import type { CheckpointQuery, CheckpointRecord, CheckpointStore } from "../model/checkpoint-store.js";

/**
 * A checkpoint store in this process's memory: state survives a failed step, not the process.
 * Records are kept as JSON text, so what is read back is a copy, exactly as a shared store hands it.
 */
export function createMemoryCheckpointStore(): CheckpointStore {
  const records = new Map<string, string>();
  const read = (text: string | undefined): CheckpointRecord | undefined =>
    text === undefined ? undefined : (JSON.parse(text) as CheckpointRecord);
  return {
    async get(id) {
      return read(records.get(id));
    },
    async write(record) {
      const stored = read(records.get(record.id));
      if ((stored?.version ?? 0) !== record.version - 1) return false;
      records.set(record.id, JSON.stringify(record));
      return true;
    },
    async list(query: CheckpointQuery = {}) {
      const found: CheckpointRecord[] = [];
      const limit = query.limit ?? 100;
      for (const text of records.values()) {
        if (found.length >= limit) break;
        const record = read(text) as CheckpointRecord;
        if (matchesQuery(record, query)) found.push(record);
      }
      return found;
    },
    async remove(id) {
      records.delete(id);
    },
  };
}

/** True when `record` is one `query` selects (the rule every store applies). */
export function matchesQuery(record: CheckpointRecord, query: CheckpointQuery): boolean {
  if (query.status !== undefined && record.status !== query.status) return false;
  const before = query.leaseExpiredBefore;
  if (before !== undefined && record.leaseUntil !== undefined && record.leaseUntil >= before) return false;
  return true;
}
