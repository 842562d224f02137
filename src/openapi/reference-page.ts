// The HTML of GET /api/v1/docs: Scalar's reference UI, whose script is a static asset of this
// Worker (public/assets/, copied from the pinned @scalar/api-reference), so the page needs nothing
// from elsewhere. No inline script: the settings travel in data attributes Scalar's browser build reads.

/** Served from the Worker's own static assets (wrangler.toml `[assets]`). */
export const REFERENCE_SCRIPT_PATH = "/assets/api-reference/standalone.js";

/**
 * Everything that would reach another host is off: Scalar's web fonts (fonts.scalar.com), its
 * telemetry, the AI agent and the developer toolbar, which links to Scalar's hosted services.
 */
const settings = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
};

const attribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function referencePage(documentUrl: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${attribute(title)}</title>
<link rel="icon" href="/favicon.ico">
</head>
<body>
<script id="api-reference" data-url="${attribute(documentUrl)}" data-configuration="${attribute(JSON.stringify(settings))}"></script>
<script src="${REFERENCE_SCRIPT_PATH}"></script>
</body>
</html>
`;
}
