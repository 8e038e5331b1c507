import type { Exchange } from "../../model/exchange.js";
import { type FanOutPlan, FanOutRun, type PartSlot, partSlot, type StartedPart } from "./fan-out-run.js";
import type { PartSource, Pulled } from "./part-source.js";

/**
 * Runs every item of `source` as a part of `original` (split, multicast, recipientList).
 * Sequential runs stay synchronous while the source and the parts are; a promise is returned
 * only once something is asynchronous. Parallel runs keep at most `plan.limit` parts in flight
 * and pull the next item only when a slot is free.
 */
export function runFanOut(plan: FanOutPlan, original: Exchange, source: PartSource): void | Promise<void> {
  const run = new FanOutRun(plan, original, source);
  return plan.limit === 1 ? sequential(run) : parallel(run);
}

/** A part finished: recorded (failure, aggregate); false when the run must stop. */
function settle(run: FanOutRun, part: StartedPart): boolean {
  // Nothing to record for a part that succeeded when nothing aggregates.
  if (part.exchange.error === undefined && run.plan.aggregate === undefined) return true;
  return run.finished(part) && run.collect(part);
}

function sequential(run: FanOutRun): void | Promise<void> {
  const source = run.source;
  if (source.async) return sequentialAsync(run, undefined);
  let slot: PartSlot | undefined;
  // Nothing to record for a part that succeeded when nothing aggregates.
  const recordSuccess = run.plan.aggregate !== undefined;
  for (;;) {
    if (!run.canStart()) return run.finish();
    let pulled: Pulled;
    try {
      pulled = source.next();
    } catch (error) {
      run.fail(error);
      return run.finish();
    }
    if (pulled.done) {
      run.exhausted = true;
      return run.finish();
    }
    // Read before the part runs: the source refills `pulled` on its next call.
    const index = run.started;
    const item = pulled.value;
    const exchange = run.partFor(item, pulled.last);
    const result = run.runPart(exchange, item, index);
    if (result !== undefined) return sequentialAsync(run, { exchange, item, index, result });
    if (exchange.error === undefined && !recordSuccess) continue;
    slot ??= partSlot();
    slot.exchange = exchange;
    slot.item = item;
    slot.index = index;
    if (!settle(run, slot)) return run.finish();
  }
}

async function sequentialAsync(run: FanOutRun, running: StartedPart | undefined): Promise<void> {
  if (running !== undefined) {
    await running.result;
    if (!settle(run, running)) return run.finish();
  }
  for (;;) {
    if (!run.canStart()) return run.finish();
    let pulled: Pulled;
    try {
      pulled = await run.source.next();
    } catch (error) {
      run.fail(error);
      return run.finish();
    }
    if (pulled.done) {
      run.exhausted = true;
      return run.finish();
    }
    const part = run.start(pulled);
    if (part.result !== undefined) await part.result;
    if (!settle(run, part)) return run.finish();
  }
}

function parallel(run: FanOutRun): Promise<void> {
  return new Promise((resolve) => {
    let active = 0;
    let pulling = false;
    let ended = false;
    // Finished parts wait here until every earlier part finished: aggregation keeps the item order.
    const waiting = new Map<number, StartedPart>();
    let nextToCollect = 0;
    const completed = (part: StartedPart): void => {
      active--;
      run.finished(part);
      waiting.set(part.index, part);
      for (let ready = waiting.get(nextToCollect); ready !== undefined; ready = waiting.get(nextToCollect)) {
        waiting.delete(nextToCollect);
        nextToCollect++;
        if (!run.collect(ready)) break;
      }
    };
    const accept = (pulled: Pulled): void => {
      if (pulled.done) {
        run.exhausted = true;
        return;
      }
      const part = run.start(pulled);
      active++;
      if (part.result === undefined) completed(part);
      else
        part.result.then(() => {
          completed(part);
          pump();
        });
    };
    const pump = (): void => {
      while (!pulling && !run.exhausted && active < run.plan.limit && run.canStart()) {
        const source = run.source;
        if (source.async) {
          pulling = true;
          source.next().then(
            (value) => {
              pulling = false;
              accept(value);
              pump();
            },
            (error: unknown) => {
              pulling = false;
              run.fail(error);
              pump();
            },
          );
          return;
        }
        let pulled: Pulled;
        try {
          pulled = source.next();
        } catch (error) {
          run.fail(error);
          break;
        }
        accept(pulled);
      }
      if (!ended && active === 0 && !pulling && (run.exhausted || run.stopping)) {
        ended = true;
        run.finish();
        resolve();
      }
    };
    pump();
  });
}
