// The broker's process and the machine around it, for bench/amqp.ts: the broker's CPU time (read
// from /proc), and the wait before each run until the broker is idle and other processes quiet.
import { readdirSync, readFileSync } from "node:fs";
import { machineBusyNs } from "./amqp-diagnostics.js";

/** The broker counts as idle once it used less than this share of one core over a window... */
const IDLE_SHARE = 0.05;
/** ...of this many milliseconds... */
const IDLE_WINDOW_MS = 200;
/** ...twice in a row; a run starts anyway after this long (the note says how often). */
export const IDLE_LIMIT_MS = 15_000;
/**
 * Other processes on the machine count as quiet under this share of one core over the same
 * windows: on 2 cores, a core they take is mostly taken from the broker, the bottleneck (the wall
 * clock per message follows their CPU use closely). A run waits for that for at most
 * QUIET_LIMIT_MS, and all runs of one queue kind together for at most QUIET_BUDGET_MS, so a
 * machine busy throughout costs the bench that much time; the note says how many runs started
 * while other processes were busy.
 */
export const QUIET_OTHERS_SHARE = 0.25;
export const QUIET_LIMIT_MS = 3_000;
export const QUIET_BUDGET_MS = 20_000;

/** Clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * The broker's process when it runs on this machine and /proc shows it (the one `beam.smp`),
 * else undefined. Its CPU time per message shows the work each side gives the broker, which on a
 * loaded machine decides the throughput more than the bench process does.
 */
export function findBroker(): number | undefined {
  let found: number[] = [];
  try {
    found = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "beam.smp";
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return undefined;
  }
  return found.length === 1 ? found[0] : undefined;
}

/** CPU time of a process so far (user + system), in ns; NaN when it cannot be read. */
export function processCpuNs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1e9) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** The broker's process, how many runs started before it or the machine was quiet, and the waiting left. */
export interface Broker {
  pid: number | undefined;
  busyStarts: number;
  contendedStarts: number;
  quietBudgetMs: number;
}

/**
 * Waits until the broker is idle: under IDLE_SHARE of one core over two windows in a row (work
 * left by the previous run, such as deleting a queue's files, is not timed in the next one), and
 * other processes quiet in the same windows (see QUIET_OTHERS_SHARE) until that wait runs out.
 */
export async function waitForQuiet(broker: Broker): Promise<void> {
  const { pid } = broker;
  if (pid === undefined) {
    await sleep(1000);
    return;
  }
  const started = Date.now();
  const brokerDeadline = started + IDLE_LIMIT_MS;
  const othersDeadline = started + Math.min(QUIET_LIMIT_MS, Math.max(broker.quietBudgetMs, 0));
  const othersNs = () => {
    const self = process.cpuUsage();
    return machineBusyNs() - processCpuNs(pid) - (self.user + self.system) * 1000;
  };
  let quietWindows = 0;
  let othersQuiet = true;
  while (quietWindows < 2) {
    if (Date.now() > brokerDeadline) {
      broker.busyStarts++;
      break;
    }
    const brokerBefore = processCpuNs(pid);
    const othersBefore = othersNs();
    await sleep(IDLE_WINDOW_MS);
    const brokerIdle = processCpuNs(pid) - brokerBefore < IDLE_SHARE * IDLE_WINDOW_MS * 1e6;
    othersQuiet = !(othersNs() - othersBefore >= QUIET_OTHERS_SHARE * IDLE_WINDOW_MS * 1e6);
    quietWindows = brokerIdle && (othersQuiet || Date.now() > othersDeadline) ? quietWindows + 1 : 0;
  }
  if (!othersQuiet) broker.contendedStarts++;
  broker.quietBudgetMs -= Math.max(Date.now() - started - 2 * IDLE_WINDOW_MS, 0);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
