import htm from "htm";
import { h } from "preact";

/** JSX-like templates without a compile step: html`<p>${text}</p>`. */
export const html = htm.bind(h);
