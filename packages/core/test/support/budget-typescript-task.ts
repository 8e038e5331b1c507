// A task module written as TypeScript sources are: its relative import names the `.js` file that
// the compiler will emit, while only the `.ts` file exists. Node's own type stripping cannot
// follow that import; the budget's worker must load it through the same hooks on every Node.
import { shout } from "../attacks/support/budget-test-tasks.js";

/** Upper-cases the text twice over, through the imported sibling. */
export function shoutTwice(input: { text: string }): string {
  return `${shout(input)} ${shout(input)}`;
}
