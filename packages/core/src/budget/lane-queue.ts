import type { Job } from "./pool-job.js";

/** One lane: its waiting jobs and the workers it holds (running jobs and replacements it caused). */
interface Lane {
  readonly jobs: Job[];
  holding: number;
}

/**
 * The waiting jobs of a pool, one FIFO queue per lane (a tool, a route, a caller), served round
 * robin: the next job comes from the first lane, in turn order, with a job waiting and fewer than
 * `maxWorkersPerLane` workers held, and that lane then goes to the back. A lane holds a worker
 * while one of its jobs runs on it and while a worker terminated for one of its jobs is being
 * replaced, so a lane whose jobs keep running into their deadlines also pays its replacements'
 * start-up, not the other lanes.
 */
export class LaneQueue {
  /** In turn order: the Map's insertion order, a served lane is moved to the end. */
  readonly #lanes = new Map<string, Lane>();
  #size = 0;

  /** Jobs waiting, in every lane. */
  get size(): number {
    return this.#size;
  }

  /** Jobs waiting in one lane. */
  waiting(lane: string): number {
    return this.#lanes.get(lane)?.jobs.length ?? 0;
  }

  /** Workers one lane holds. */
  holding(lane: string): number {
    return this.#lanes.get(lane)?.holding ?? 0;
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
    this.#forget(job.lane, lane);
    return position;
  }

  /** The first job of the next lane in turn that may take a worker, left in its queue. */
  peek(maxWorkersPerLane: number): Job | undefined {
    for (const lane of this.#lanes.values()) {
      if (lane.jobs.length > 0 && lane.holding < maxWorkersPerLane) return lane.jobs[0];
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
    this.#forget(laneName, lane);
  }

  /** How many waiting jobs could take a worker now: per lane, up to the workers it may still hold. */
  runnable(maxWorkersPerLane: number): number {
    let count = 0;
    for (const lane of this.#lanes.values()) {
      count += Math.min(lane.jobs.length, Math.max(0, maxWorkersPerLane - lane.holding));
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
    for (const [name, lane] of this.#lanes) {
      lane.jobs.length = 0;
      this.#forget(name, lane);
    }
    this.#size = 0;
    return drained;
  }

  #lane(name: string): Lane {
    let lane = this.#lanes.get(name);
    if (lane === undefined) {
      lane = { jobs: [], holding: 0 };
      this.#lanes.set(name, lane);
    }
    return lane;
  }

  /** A lane with nothing waiting and nothing held is dropped (lanes are as many as jobs at most). */
  #forget(name: string, lane: Lane): void {
    if (lane.jobs.length === 0 && lane.holding === 0) this.#lanes.delete(name);
  }
}
