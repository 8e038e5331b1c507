import type { Job } from "./pool-job.js";

/** One lane: its waiting jobs, the workers it holds and when it last did anything. */
interface Lane {
  readonly jobs: Job[];
  /** Running jobs and replacements it caused (see `LaneQueue`). */
  holding: number;
  /** When a job of it was last submitted, started or ended (performance.now()). */
  seenAt: number;
}

/** How many workers a lane may hold. */
export interface LaneLimits {
  readonly maxWorkers: number;
  readonly maxWorkersPerLane: number;
  /** How long a lane counts as present after its last job (the budget's `timeoutMs`). */
  readonly presentMs: number;
}

/**
 * The waiting jobs of a pool, one FIFO queue per lane (a tool, a route, a caller), served round
 * robin: the next job comes from the first lane, in turn order, with a job waiting and room for
 * another worker, and that lane then goes to the back of the turn.
 *
 * A lane holds a worker while one of its jobs runs on it and while a worker terminated for one of
 * its jobs is being replaced, so a lane whose jobs keep running into their deadlines pays its
 * replacements' start-up itself. While another lane is present (has jobs waiting or running, or
 * had one within `presentMs`), a lane holds at most `maxWorkersPerLane` workers: whatever one lane
 * sends, the others keep a worker. A lane alone may use every worker.
 */
export class LaneQueue {
  readonly #limits: LaneLimits;
  /** In turn order: the Map's insertion order, a served lane is moved to the end. */
  readonly #lanes = new Map<string, Lane>();
  #size = 0;

  constructor(limits: LaneLimits) {
    this.#limits = limits;
  }

  /** Jobs waiting, in every lane. */
  get size(): number {
    return this.#size;
  }

  /** Jobs waiting in one lane. */
  waiting(lane: string): number {
    return this.#lanes.get(lane)?.jobs.length ?? 0;
  }

  push(job: Job): void {
    this.#lane(job.lane).jobs.push(job);
    this.#size++;
  }

  /** Takes a job out of its lane; returns how many jobs of its lane were ahead of it (-1: not queued). */
  remove(job: Job): number {
    const lane = this.#lanes.get(job.lane);
    const position = lane === undefined ? -1 : lane.jobs.indexOf(job);
    if (lane === undefined || position < 0) return -1;
    lane.jobs.splice(position, 1);
    this.#size--;
    return position;
  }

  /** The first job of the next lane in turn that may take a worker, left in its queue. */
  peek(): Job | undefined {
    const limit = this.#limit();
    for (const lane of this.#lanes.values()) {
      if (lane.jobs.length > 0 && lane.holding < limit) return lane.jobs[0];
    }
    return undefined;
  }

  /** Takes `job` (what `peek` returned) out of its queue and sends its lane to the back of the turn. */
  take(job: Job): void {
    const lane = this.#lanes.get(job.lane);
    if (lane === undefined || lane.jobs[0] !== job) return;
    lane.jobs.shift();
    this.#size--;
    this.#lanes.delete(job.lane);
    this.#lanes.set(job.lane, lane);
  }

  /** Changes how many workers a lane holds (+1 when a job starts or a replacement is charged, -1 after). */
  hold(laneName: string, delta: number): void {
    const lane = this.#lane(laneName);
    lane.holding = Math.max(0, lane.holding + delta);
  }

  /** How many waiting jobs could take a worker now: per lane, up to the workers it may still hold. */
  runnable(): number {
    const limit = this.#limit();
    let count = 0;
    for (const lane of this.#lanes.values()) {
      count += Math.min(lane.jobs.length, Math.max(0, limit - lane.holding));
    }
    return count;
  }

  /** Every waiting job, lane by lane. */
  *jobs(): IterableIterator<Job> {
    for (const lane of this.#lanes.values()) yield* lane.jobs;
  }

  /** Takes every waiting job out; workers held stay counted until released. */
  drain(): Job[] {
    const drained = [...this.jobs()];
    for (const lane of this.#lanes.values()) lane.jobs.length = 0;
    this.#size = 0;
    return drained;
  }

  #lane(name: string): Lane {
    const now = performance.now();
    let lane = this.#lanes.get(name);
    if (lane === undefined) {
      lane = { jobs: [], holding: 0, seenAt: now };
      this.#lanes.set(name, lane);
    }
    lane.seenAt = now;
    return lane;
  }

  /**
   * The workers one lane may hold now: `maxWorkersPerLane` while two lanes or more are present,
   * every worker otherwise. Lanes no longer present are dropped here, so there are never more
   * lanes than were used within `presentMs`.
   */
  #limit(): number {
    const now = performance.now();
    let present = 0;
    for (const [name, lane] of this.#lanes) {
      if (lane.jobs.length > 0 || lane.holding > 0 || now - lane.seenAt < this.#limits.presentMs) present++;
      else this.#lanes.delete(name);
    }
    return present > 1 ? this.#limits.maxWorkersPerLane : this.#limits.maxWorkers;
  }
}
