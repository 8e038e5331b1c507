// Resilience and error-handling EIPs: each file defines its verb (types, recording, compiling).
export {};
