// The xpath job a budget worker runs (a module of its own: functions cannot cross threads).
import { queryXml } from "./run-xpath.js";

/** One xpath job: XML text and an expression, the route author's (`trusted`) or untrusted. */
export interface XPathJob {
  readonly xml: string;
  readonly xpath: string;
  readonly trusted: boolean;
}

/** Checks an untrusted expression against the dialect again, parses the XML and evaluates. */
export function xpathJob(job: XPathJob): string | null {
  return queryXml(job.xml, job.xpath, !job.trusted);
}
