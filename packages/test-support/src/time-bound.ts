// Real-time upper bounds in the attack tests (an event loop never stalled longer than 750 ms, a
// guarded regex answered within 100 ms) guard against stalls of seconds, but a machine whose cores
// are shared by other work stretches every millisecond the test measures. These bounds are scaled
// by a calibration measured in the same process: a fixed piece of CPU work is timed, and its
// slowdown against how long it takes on an idle machine multiplies the bound. The work a bounded
// attack would do when its guard is broken is CPU work too, so it slows by the same factor and
// still overruns the scaled bound.

/**
 * How long the calibration work takes on an idle machine (the fastest of many runs on a
 * two-core development machine, in ms). A faster machine gets no tighter bounds than written.
 */
const IDLE_WORK_MS = 2.5;

/** The largest factor a bound is stretched by, however loaded the machine. */
export const MAX_LOAD_FACTOR = 20;

/** A fixed piece of CPU work: sorting and printing pseudo-random numbers, then a JSON round trip. */
function calibrationWork(): number {
  let seed = 12_345;
  const values = new Float64Array(20_000);
  for (let index = 0; index < values.length; index++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    values[index] = seed;
  }
  values.sort();
  let text = "";
  for (let index = 0; index < 2_000; index++) text += String(values[index * 10]);
  return (JSON.parse(JSON.stringify({ text })) as { text: string }).text.length;
}

/** The median of three timed runs of the calibration work, in ms. */
function timeCalibrationWork(): number {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const startedAt = performance.now();
    calibrationWork();
    times.push(performance.now() - startedAt);
  }
  times.sort((left, right) => left - right);
  return times[1] ?? IDLE_WORK_MS;
}

// Warmed and measured once when a test file loads, so a bound checked later sees the larger of
// the load then and the load when it is checked.
timeCalibrationWork();
let slowestFactor = Math.max(1, timeCalibrationWork() / IDLE_WORK_MS);

/**
 * How much slower than an idle machine this process runs CPU work now (at least 1, at most
 * MAX_LOAD_FACTOR): the larger of the factor measured now and every factor measured before in
 * this test file.
 */
export function loadFactor(): number {
  slowestFactor = Math.max(slowestFactor, timeCalibrationWork() / IDLE_WORK_MS);
  return Math.min(MAX_LOAD_FACTOR, slowestFactor);
}

/** `milliseconds` (a bound written for an idle machine) scaled to this machine's load now. */
export function scaledMs(milliseconds: number): number {
  return milliseconds * loadFactor();
}
