// The llm benches' loopback model in a process of its own (started by startModelProcess): it
// sends its address once listening, and its tally whenever the parent sends "tally".
import { type ServerTally, startServer } from "./llm-model.js";

const tally: ServerTally = { answeredTurns: 0, problems: [] };
const { baseURL } = await startServer(tally);
process.send?.({ baseURL });
process.on("message", (message) => {
  if (message === "tally") process.send?.(tally);
});
process.on("disconnect", () => process.exit(0));
