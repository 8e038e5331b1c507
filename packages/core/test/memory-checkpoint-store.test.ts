import { createMemoryCheckpointStore } from "@routekit/core";
import { describe } from "vitest";
import { checkpointStoreContract } from "./support/checkpoint-store-contract.js";

describe("in-memory checkpoint store", () => {
  checkpointStoreContract(async () => createMemoryCheckpointStore());
});
