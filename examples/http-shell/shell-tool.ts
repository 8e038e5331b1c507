import { execFile } from "node:child_process";
import { isAbsolute } from "node:path";
import type { Exchange } from "@routekit/core";

/** How the shell tool runs programs. */
export interface ShellToolOptions {
  /** Program names the model may run; nothing else is ever started. */
  allowedPrograms: readonly string[];
  /** Every program runs here, whatever the model asks. */
  workingDirectory: string;
  /** Killed after this many ms (default 5000). */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr each (default 16 KiB); the rest is dropped. */
  maxOutputBytes?: number;
}

/** The tool's input, as its JSON Schema declares it. */
interface ShellInput {
  program: string;
  args?: string[];
}

/** What the model reads back. */
export interface ShellResult {
  program: string;
  args: string[];
  exitCode: number | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
}

/** The JSON Schema of the tool's arguments, with the allowed programs as an enum. */
export function shellInputSchema(allowedPrograms: readonly string[]) {
  return {
    type: "object",
    properties: {
      program: { type: "string", enum: [...allowedPrograms] },
      args: { type: "array", items: { type: "string", maxLength: 200 }, maxItems: 16 },
    },
    required: ["program"],
    additionalProperties: false,
  } as const;
}

/**
 * The processor behind the `shell` tool route: runs one allow-listed program with `execFile`
 * (arguments are passed as a list, never through a shell), in the pinned working directory, with
 * a timeout and capped output. Arguments that leave the directory (absolute paths, `..`) are refused.
 */
export function runAllowedProgram(options: ShellToolOptions) {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxOutputBytes = options.maxOutputBytes ?? 16 * 1024;
  return (exchange: Exchange): Promise<void> => {
    const input = exchange.body as ShellInput;
    const args = input.args ?? [];
    if (!options.allowedPrograms.includes(input.program)) {
      throw new Error(
        `program '${input.program}' is not allowed; allowed: ${options.allowedPrograms.join(", ")}`,
      );
    }
    const escaping = args.find((arg) => isAbsolute(arg) || arg.split(/[\\/]/).includes(".."));
    if (escaping !== undefined) {
      throw new Error(
        `argument '${escaping}' leaves the working directory (absolute paths and '..' are refused)`,
      );
    }
    return new Promise((resolve) => {
      execFile(
        input.program,
        args,
        {
          cwd: options.workingDirectory,
          timeout: timeoutMs,
          maxBuffer: maxOutputBytes,
          shell: false,
          env: { PATH: process.env.PATH ?? "", LANG: "C" },
          signal: exchange.signal,
        },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
          const result: ShellResult = {
            program: input.program,
            args,
            exitCode: code,
            stdout: String(stdout),
            stderr: error !== null && code === null && stderr === "" ? error.message : String(stderr),
            truncated: error?.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
            timedOut: error?.killed === true && error.code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
          };
          exchange.body = result;
          resolve();
        },
      );
    });
  };
}
