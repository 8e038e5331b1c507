// Routing EIPs: each file defines its verb (types, recording, compiling).
export {};
