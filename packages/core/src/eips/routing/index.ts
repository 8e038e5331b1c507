// Routing EIPs: each file defines its verb (types, recording, compiling).
import "./choice.js";
import "./split.js";
import "../aggregation/aggregate.js";
import "./multicast.js";
import "./recipient-list.js";
import "./wire-tap.js";
import "./enrich.js";
import "./loop.js";
import "./delay.js";
