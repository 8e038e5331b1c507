import { runPipelineScenarios } from "./pipeline-scenarios.js";

// Run with --disallow-code-generation-from-strings: reports whether code generation was really
// refused in this process, and what the scenarios observed.
let codeGenerationRefused = false;
try {
  new Function("return 1");
} catch (error) {
  codeGenerationRefused = error instanceof EvalError;
}
const outcome = await runPipelineScenarios(Number(process.argv[2]));
process.stdout.write(JSON.stringify({ codeGenerationRefused, outcome }));
