// What else happened during one amqp bench run: where the broker's CPU time went (its scheduler
// threads; its dirty I/O threads, which write and sync message files; its dirty CPU threads, where
// Erlang collects any process heap over about 1 MB, such as a queue's holding thousands of
// messages; the rest), how much it wrote, the bench process's own garbage collections, the CPU
// time every other process on the machine used meanwhile (the contention both sides share two
// cores with), and how fast a fixed loop runs. --verbose prints it per run; the notes give the
// other processes' CPU and the fixed loop's times. Linux only (/proc); what it cannot read is NaN.
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { PerformanceObserver } from "node:perf_hooks";

/** Clock ticks per second of /proc (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

/** Cumulative counters at one instant; `diagnosticsSince` subtracts two of them. */
export interface DiagnosticsMark {
  brokerSchedulersNs: number;
  brokerDirtyIoNs: number;
  brokerDirtyCpuNs: number;
  brokerOtherNs: number;
  brokerWriteBytes: number;
  /** Busy CPU time of the whole machine (every core, every process), in ns. */
  machineBusyNs: number;
  benchCpuNs: number;
  gcNs: number;
  gcMajor: number;
  gcMinor: number;
}

/** Per message, except `othersShare` (other processes' CPU, in cores, averaged over the run). */
export interface RunDiagnostics {
  brokerSchedulersNs: number;
  brokerDirtyIoNs: number;
  brokerDirtyCpuNs: number;
  brokerOtherNs: number;
  brokerWriteBytes: number;
  gcNs: number;
  gcMajor: number;
  gcMinor: number;
  othersShare: number;
}

let calibrationSink = 0;

/**
 * CPU time, in ns, of the same fixed loop (5 million steps of integer arithmetic, about 5 ms here),
 * the median of three tries so that one brief stall does not count: how fast the machine runs this
 * process at the moment. On a virtual machine it also moves with what other tenants of the host
 * do, which no process list inside shows.
 */
export function calibrationCpuNs(): number {
  const tries = [fixedLoopCpuNs(), fixedLoopCpuNs(), fixedLoopCpuNs()].sort((a, b) => a - b);
  return tries[1]!;
}

function fixedLoopCpuNs(): number {
  const before = process.cpuUsage();
  let state = calibrationSink | 1;
  for (let step = 0; step < 5_000_000; step++) state = (Math.imul(state, 1103515245) + 12345) | 0;
  calibrationSink = state;
  const used = process.cpuUsage(before);
  return (used.user + used.system) * 1000;
}

let gcNs = 0;
let gcMajor = 0;
let gcMinor = 0;
let observer: PerformanceObserver | undefined;

/** Starts counting the bench process's garbage collections (once). */
export function observeGarbageCollection(): void {
  if (observer !== undefined) return;
  observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcNs += entry.duration * 1e6;
      // 1 = minor (scavenge), 2 and 4 = major (mark-compact), incremental marking: 8
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      const kind = detail?.kind ?? 0;
      if (kind === 1) gcMinor++;
      else gcMajor++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
}

export function stopObservingGarbageCollection(): void {
  observer?.disconnect();
  observer = undefined;
}

function threadCpuNs(stat: string): number {
  const fields = stat.split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1e9) / TICKS_PER_SECOND;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Busy CPU time of the whole machine so far (every core, every process), in ns; NaN off Linux. */
export function machineBusyNs(): number {
  // cpu  user nice system idle iowait irq softirq steal ...
  const machine = (read("/proc/stat").split("\n")[0] ?? "").split(/\s+/).slice(1).map(Number);
  if (machine.length < 8) return Number.NaN;
  const ticks = machine.reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return (ticks * 1e9) / TICKS_PER_SECOND;
}

export function markDiagnostics(brokerPid: number | undefined): DiagnosticsMark {
  let schedulers = Number.NaN;
  let dirtyIo = Number.NaN;
  let dirtyCpu = Number.NaN;
  let other = Number.NaN;
  let writeBytes = Number.NaN;
  if (brokerPid !== undefined) {
    schedulers = 0;
    dirtyIo = 0;
    dirtyCpu = 0;
    other = 0;
    try {
      for (const thread of readdirSync(`/proc/${brokerPid}/task`)) {
        const name = read(`/proc/${brokerPid}/task/${thread}/comm`).trim();
        const ns = threadCpuNs(read(`/proc/${brokerPid}/task/${thread}/stat`));
        if (Number.isNaN(ns)) continue;
        if (/^\d+_scheduler$/.test(name)) schedulers += ns;
        else if (name.includes("dirty_io")) dirtyIo += ns;
        else if (name.includes("dirty_cpu")) dirtyCpu += ns;
        else other += ns;
      }
    } catch {
      schedulers = dirtyIo = dirtyCpu = other = Number.NaN;
    }
    const io = /write_bytes: (\d+)/.exec(read(`/proc/${brokerPid}/io`));
    writeBytes = io === null ? Number.NaN : Number(io[1]);
  }
  const usage = process.cpuUsage();
  return {
    brokerSchedulersNs: schedulers,
    brokerDirtyIoNs: dirtyIo,
    brokerDirtyCpuNs: dirtyCpu,
    brokerOtherNs: other,
    brokerWriteBytes: writeBytes,
    machineBusyNs: machineBusyNs(),
    benchCpuNs: (usage.user + usage.system) * 1000,
    gcNs,
    gcMajor,
    gcMinor,
  };
}

export function diagnosticsSince(
  before: DiagnosticsMark,
  after: DiagnosticsMark,
  count: number,
  wallNs: number,
): RunDiagnostics {
  const delta = (key: keyof DiagnosticsMark) => after[key] - before[key];
  const broker =
    delta("brokerSchedulersNs") +
    delta("brokerDirtyIoNs") +
    delta("brokerDirtyCpuNs") +
    delta("brokerOtherNs");
  const others = delta("machineBusyNs") - delta("benchCpuNs") - (Number.isNaN(broker) ? 0 : broker);
  return {
    brokerSchedulersNs: delta("brokerSchedulersNs") / count,
    brokerDirtyIoNs: delta("brokerDirtyIoNs") / count,
    brokerDirtyCpuNs: delta("brokerDirtyCpuNs") / count,
    brokerOtherNs: delta("brokerOtherNs") / count,
    brokerWriteBytes: delta("brokerWriteBytes") / count,
    gcNs: delta("gcNs") / count,
    gcMajor: delta("gcMajor"),
    gcMinor: delta("gcMinor"),
    othersShare: Math.min(Math.max(others / wallNs, 0), cpus().length),
  };
}

export function formatDiagnostics(diagnostics: RunDiagnostics): string {
  const us = (ns: number) => (ns / 1000).toFixed(1);
  return `broker sched ${us(diagnostics.brokerSchedulersNs)} / dirty io ${us(diagnostics.brokerDirtyIoNs)} / dirty cpu ${us(diagnostics.brokerDirtyCpuNs)} / other ${us(diagnostics.brokerOtherNs)} µs, wrote ${diagnostics.brokerWriteBytes.toFixed(0)} B per message; gc ${us(diagnostics.gcNs)} µs per message (${diagnostics.gcMajor} major, ${diagnostics.gcMinor} minor); other processes ${diagnostics.othersShare.toFixed(2)} cores`;
}
