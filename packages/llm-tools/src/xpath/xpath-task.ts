// The xpath job a budget worker runs (a module of its own: functions cannot cross threads).
import { queryXml } from "./run-xpath.js";

/** One xpath job: XML text and an untrusted expression. */
export interface XPathJob {
  readonly xml: string;
  readonly xpath: string;
}

/** Checks the expression against the untrusted dialect again, parses the XML and evaluates. */
export function xpathJob(job: XPathJob): string | null {
  return queryXml(job.xml, job.xpath, true);
}
