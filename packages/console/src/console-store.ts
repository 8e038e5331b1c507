import type { RouteContext } from "@routekit/core";
import { AgentRuns } from "./agent-runs.js";
import type { ResolvedConsoleOptions } from "./console-options.js";
import { ExchangeRecorder } from "./exchange-recorder.js";
import { RecordingSwitch } from "./recording-switch.js";
import { StatsRegistry } from "./step-stats.js";

/** Everything the console knows about one context, in bounded buffers. */
export class ConsoleStore {
  readonly context: RouteContext;
  readonly options: ResolvedConsoleOptions;
  readonly registry: StatsRegistry;
  readonly recorder: ExchangeRecorder;
  /** Whether the recorder listens: while a page is connected, or always (option `record`). */
  readonly recording: RecordingSwitch;
  readonly agentRuns: AgentRuns;
  /** Grows whenever a record or a run changes: the event stream sends lists only when it moved. */
  version = 0;

  constructor(context: RouteContext, options: ResolvedConsoleOptions) {
    this.context = context;
    this.options = options;
    const changed = (): void => {
      this.version++;
    };
    this.registry = new StatsRegistry(options.durationSamples);
    this.recorder = new ExchangeRecorder(options, this.registry, changed);
    this.recording = new RecordingSwitch(options.record, context.events, this.recorder);
    this.agentRuns = new AgentRuns(context.events, options, changed);
  }
}
