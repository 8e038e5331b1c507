// The tasks of the budget fairness benchmark, in plain JavaScript as a compiled package ships its
// task modules (a .ts task module would make every worker start tsx, a cost only development has).

/** A victim's trivial call: its input's text, upper-cased. */
export function trivial(input) {
  return input.text.toUpperCase();
}

/** A hostile input: runs until the budget terminates its worker at the deadline. */
export function spin() {
  for (;;) {
    // busy
  }
}
