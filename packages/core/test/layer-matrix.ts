/**
 * The core's layers, lowest first, and the folders each may import (besides itself). The layers
 * test holds every folder of `src` to its row, and docs/architecture.md's layer table to the
 * rows' order and imports, so the table cannot say something the code does not do.
 */
export const layerMatrix: ReadonlyArray<{ readonly folder: string; readonly mayImport: readonly string[] }> =
  [
    { folder: "errors", mayImport: [] },
    { folder: "support", mayImport: ["errors"] },
    { folder: "model", mayImport: ["support", "errors"] },
    { folder: "exchange", mayImport: ["model", "support", "errors"] },
    { folder: "expressions", mayImport: ["support", "errors"] },
    { folder: "budget", mayImport: ["support", "errors"] },
    { folder: "components", mayImport: ["exchange", "model", "support", "errors"] },
    { folder: "compile", mayImport: ["components", "expressions", "exchange", "model", "support", "errors"] },
    { folder: "runtime", mayImport: ["compile", "components", "exchange", "model", "support", "errors"] },
    { folder: "dsl", mayImport: ["runtime", "compile", "components", "model", "support", "errors"] },
    {
      folder: "eips",
      mayImport: [
        "dsl",
        "runtime",
        "compile",
        "components",
        "expressions",
        "exchange",
        "model",
        "support",
        "errors",
      ],
    },
    {
      folder: "(root)",
      mayImport: [
        "eips",
        "dsl",
        "runtime",
        "compile",
        "components",
        "budget",
        "expressions",
        "exchange",
        "model",
        "support",
        "errors",
      ],
    },
  ];
