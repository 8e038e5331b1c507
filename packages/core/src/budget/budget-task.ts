import type * as Fs from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lazyModule } from "../support/lazy-module.js";
import { BudgetError } from "./budget-error.js";

/** node:fs, loaded when the first task's module file is looked up. */
const fs = lazyModule<typeof Fs>("node:fs", import.meta.url);

/**
 * A function a budget runs in a worker thread, named by the module file that exports it and the
 * export's name (functions cannot cross threads). The export is called as
 * `run(input, { maxOutputBytes })` and returns (or resolves to) a value that survives
 * `structuredClone`; it should stop early once its output would pass `maxOutputBytes`.
 */
export interface BudgetTask<TInput = unknown, TResult = unknown> {
  /** The module's file URL as given; `moduleUrl()` is the file actually loaded. */
  readonly module: string;
  readonly exportName: string;
  /** `file-name#export`, for error messages. */
  readonly label: string;
  /** The file URL a worker imports (see `defineBudgetTask` for how it is chosen). */
  moduleUrl(): string;
  /** Types only: the input and result of the task. */
  readonly types?: { readonly input: TInput; readonly result: TResult };
}

/** The signature of a task's export (what a task module must export under `exportName`). */
export type BudgetTaskFunction<TInput = unknown, TResult = unknown> = (
  input: TInput,
  limits: { readonly maxOutputBytes: number },
) => TResult | Promise<TResult>;

/**
 * Names a task: `defineBudgetTask(new URL("./my-task.js", import.meta.url), "runMyTask")`.
 * Write the URL with `.js` as TypeScript ESM imports are written: when that file does not exist
 * but a `.ts` file of the same name does (running from TypeScript sources under vitest or tsx),
 * the `.ts` file is loaded, through tsx's loader in the worker. Compiled code loads the `.js` file.
 */
export function defineBudgetTask<TInput = unknown, TResult = unknown>(
  module: URL | string,
  exportName: string,
): BudgetTask<TInput, TResult> {
  const href = typeof module === "string" ? module : module.href;
  if (!href.startsWith("file:")) {
    throw new BudgetError(
      "BUDGET_OPTION_INVALID",
      `defineBudgetTask: the module must be a file: URL (e.g. new URL("./task.js", import.meta.url)), found "${href}"`,
      { task: undefined, limit: "module" },
    );
  }
  if (typeof exportName !== "string" || exportName === "") {
    throw new BudgetError(
      "BUDGET_OPTION_INVALID",
      `defineBudgetTask: the export name must be a non-empty text, found ${String(exportName)}`,
      { task: undefined, limit: "exportName" },
    );
  }
  const fileName = href.slice(href.lastIndexOf("/") + 1);
  let resolved: string | undefined;
  return {
    module: href,
    exportName,
    label: `${fileName}#${exportName}`,
    moduleUrl: () => {
      resolved ??= resolveModuleFile(href);
      return resolved;
    },
  };
}

/** The file a worker should import: the given one, or its `.ts` twin when only that exists. */
function resolveModuleFile(href: string): string {
  const path = fileURLToPath(href);
  if (fs().existsSync(path)) return href;
  if (path.endsWith(".js")) {
    const source = `${path.slice(0, -3)}.ts`;
    if (fs().existsSync(source)) return pathToFileURL(source).href;
  }
  throw new BudgetError(
    "BUDGET_OPTION_INVALID",
    `budget task module not found: ${path} (nor a .ts file beside it)`,
    {
      task: undefined,
      limit: "module",
    },
  );
}
