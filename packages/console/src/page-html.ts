function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The console's page: a shell that loads the bundled front end. `token` (already checked) is
 * repeated in the asset URLs, so the assets pass the same check as everything else.
 */
export function pageHtml(token: string | undefined): string {
  const query = token === undefined ? "" : `?token=${escapeAttribute(encodeURIComponent(token))}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>routekit console</title>
<link rel="stylesheet" href="/assets/console.css${query}">
<script type="module" src="/assets/console.js${query}"></script>
</head>
<body>
<noscript>The routekit console needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;
}
