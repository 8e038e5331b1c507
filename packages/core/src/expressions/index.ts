export type { CompiledExpression, Expression, ExpressionExchange } from "./expression-exchange.js";
export { INLINE_DOCUMENT_DEFAULTS, type InlineDocumentLimits } from "./inline-document.js";
export { type CheckedJsonPath, checkJsonPath, evaluateJsonPath, MAX_JSONPATH_LENGTH } from "./jsonpath.js";
export { checkUntrustedJsonPath, MAX_UNTRUSTED_DESCENTS } from "./jsonpath-dialect.js";
export { isMultiMatchPath } from "./jsonpath-syntax.js";
export { parseXml, refuseDoctype } from "./parse-xml.js";
export {
  body,
  type CompiledPredicate,
  compileExpression,
  compilePredicate,
  constant,
  header,
  jsonpath,
  simple,
  xpath,
} from "./simple.js";
export { SIMPLE_FUNCTION_NAMES } from "./simple-functions.js";
export { checkXmlShape, MAX_XML_ATTRIBUTES, MAX_XML_DEPTH } from "./xml-shape.js";
export { checkXPathSyntax, evaluateXPath, MAX_XPATH_LENGTH } from "./xpath.js";
export { checkUntrustedXPath, UNTRUSTED_XPATH_FUNCTIONS } from "./xpath-dialect.js";
export { formatXPathNumber } from "./xpath-result.js";
