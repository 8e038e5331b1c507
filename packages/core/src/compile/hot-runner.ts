import { runtime } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import { generateRunner, MAX_GENERATED_STEPS } from "./generated-runner.js";
import type { PipelineChannel } from "./pipeline-channel.js";

/** How many runs of a pipeline make one window of its hotness count. */
export const HOT_WINDOW_RUNS = 1024;

/**
 * A pipeline is hot when it had at least 1/HOT_SHARE of all the runs of pipelines still on the
 * loop during its last window. (At 1,000 routes taking turns, no pipeline is; at 10, each is.)
 */
export const HOT_SHARE = 16;

/** Runs of pipelines on the shared loop, in this process: the measure of a pipeline's share. */
let loopRuns = 0;

/**
 * Runs a pipeline on the shared loop (`first`) until it is hot, then on a runner generated for it.
 *
 * Why not generate every pipeline's runner at once: a generated runner is a function of its own,
 * which V8 optimises only after it ran often enough by itself. With traffic spread over hundreds
 * of routes, no runner ever gets there and every message runs in the interpreter, several times
 * slower than the shared loop, which is optimised once for all pipelines (measured at 1,000
 * routes taking turns: none of 1,000 runners optimised after 1M messages). So every pipeline
 * starts on the loop, and one that takes a large enough share of the runs — where the inlining
 * of its own runner pays — gets its runner then. Redeliveries, resumes and the rest after a
 * promise follow (`channel.runFrom`).
 */
export function runOnLoopUntilHot(
  channel: PipelineChannel,
  steps: readonly Processor[],
  events: { readonly observingSteps: boolean },
  first: Processor,
): Processor {
  if (steps.length > MAX_GENERATED_STEPS) return first;
  let hot: Processor | undefined;
  let runs = 0;
  let windowStart = loopRuns;
  const promote = (): void => {
    const generated = generateRunner({
      steps,
      events,
      loop: channel.loop,
      stopped: channel.stopped,
      threw: channel.fail,
    });
    // Where the process refuses code generation, the loop it stays.
    hot = generated?.run ?? first;
    if (generated !== undefined) channel.runFrom = generated.runFrom;
  };
  /** One more run on the loop: true when that made the pipeline hot (it then has its runner). */
  const counted = (): boolean => {
    loopRuns++;
    if (++runs !== HOT_WINDOW_RUNS) return false;
    if (loopRuns - windowStart <= HOT_WINDOW_RUNS * HOT_SHARE) {
      promote();
      return true;
    }
    runs = 0;
    windowStart = loopRuns;
    return false;
  };
  // Several steps: the loop is entered here directly, one closure less to go through per run
  // (with traffic spread over many routes, each closure a message passes is a cache miss).
  const loop = channel.loop;
  if (steps.length > 1) {
    return (exchange: Exchange) => {
      if (hot !== undefined || counted()) return hot!(exchange);
      return loop(runtime(exchange), 0, 0);
    };
  }
  return (exchange: Exchange) => {
    if (hot !== undefined || counted()) return hot!(exchange);
    return first(exchange);
  };
}
