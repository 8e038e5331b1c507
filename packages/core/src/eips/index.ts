// Loads every core verb so the DSL has them installed.
import "./route-verbs.js";
import "./message.js";
import "./flow.js";
import "./to-dynamic.js";
import "./routing/index.js";
import "./resilience/index.js";
