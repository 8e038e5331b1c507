// Installs core's verbs from their one list (core-verbs.ts), once, when the package loads.
import { installVerbs } from "../dsl/verbs.js";
import { CORE_VERBS } from "./core-verbs.js";

installVerbs(CORE_VERBS);
