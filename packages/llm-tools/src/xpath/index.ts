export {
  readXPathQuery,
  runFixedXPath,
  runXPath,
  runXPathBounded,
  XPATH_DOCUMENT_INPUT_SCHEMA,
  XPATH_INPUT_SCHEMA,
  type XPathQuery,
} from "./run-xpath.js";
export {
  type ResolvedXPathOptions,
  resolveXPathOptions,
  XPATH_DEFAULTS,
  type XPathOptions,
} from "./xpath-options.js";
