// The HTML of GET /api/v1/docs: the OpenAPI document rendered on the server, tag by tag, so the
// page needs no script at all and nothing from another host (issue 20; docs/decisions/openapi.md,
// "Reference page"). Its stylesheet is served beside it (REFERENCE_STYLESHEET_PATH).

type Json = Record<string, any>;

export const REFERENCE_STYLESHEET_PATH = "/api/v1/docs.css";

export const REFERENCE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:60rem;margin:0 auto;padding:1rem}
nav ul{columns:2;list-style:none;padding:0}
h2{margin-top:2.5rem;border-bottom:2px solid #0a4fb5}
h3{font-size:1rem;margin:1.5rem 0 .25rem}
code{font:13px/1.4 ui-monospace,Menlo,Consolas,monospace}
.method{display:inline-block;min-width:4.5rem;padding:.1rem .4rem;border-radius:.3rem;background:#e8effa;color:#0a4fb5;font-weight:700;text-transform:uppercase}
.muted{color:#4d4d4d}
table{border-collapse:collapse;width:100%;margin:.25rem 0}
th,td{text-align:left;vertical-align:top;padding:.2rem .5rem;border-bottom:1px solid #e5e5e5}
th{font-size:.85rem;color:#4d4d4d}
a{color:#0a4fb5}
`;

const text = (value: unknown) =>
  String(value ?? "").replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const METHODS = ["get", "post", "put", "patch", "delete"];

/** `#/components/schemas/Booking` → `Booking`; anything else as its JSON type. */
const schemaName = (schema: Json | undefined): string =>
  schema?.$ref ? String(schema.$ref).split("/").pop()! : schema?.type ? String(schema.type) : "object";

const anchorOf = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function parametersTable(parameters: Json[]): string {
  if (parameters.length === 0) return "";
  const rows = parameters.map((p) =>
    `<tr><td><code>${text(p.name)}</code></td><td>${text(p.in)}</td><td>${p.required ? "yes" : ""}</td><td>${text(p.description)}</td></tr>`);
  return `<table><thead><tr><th>parameter</th><th>in</th><th>required</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function operationSection(path: string, method: string, op: Json): string {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const answers = Object.entries(op.responses ?? {}).map(([status, answer]) => `<code>${text(status)}</code> ${text((answer as Json).description)}`);
  return `<section id="${anchorOf(`${method} ${path}`)}">
<h3><span class="method">${text(method)}</span> <code>${text(path)}</code></h3>
<p>${text(op.summary)}</p>
${op.description ? `<p class="muted">${text(op.description)}</p>` : ""}
${parametersTable((op.parameters ?? []) as Json[])}
${body ? `<p>Body: <code>${text(schemaName(body))}</code></p>` : ""}
<p class="muted">${answers.join(" · ")}</p>
</section>`;
}

/** Every operation under its first tag, the tags in the document's order. */
export function referencePage(document: Json, documentUrl: string): string {
  const byTag = new Map<string, string[]>(((document.tags ?? []) as Json[]).map((t) => [String(t.name), []]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      const tag = String(op.tags?.[0] ?? "Other");
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationSection(path, method, op));
    }
  }
  // Webhooks are what this API sends, not routes: listed by event name under their tag.
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    const op = (item as Json).post as Json | undefined;
    if (!op) continue;
    const tag = String(op.tags?.[0] ?? "Webhook payloads");
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push(operationSection(name, "post", op));
  }
  const descriptions = new Map(((document.tags ?? []) as Json[]).map((t) => [String(t.name), String(t.description ?? "")]));
  const tags = [...byTag].filter(([, sections]) => sections.length > 0);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(document.info?.title)}</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${REFERENCE_STYLESHEET_PATH}">
</head>
<body>
<main>
<h1>${text(document.info?.title)} <span class="muted">${text(document.info?.version)}</span></h1>
<p>${text(document.info?.description)}</p>
<p>The machine-readable description: <a href="${text(documentUrl)}"><code>${text(documentUrl)}</code></a> (OpenAPI ${text(document.openapi)}).</p>
<nav><ul>${tags.map(([tag]) => `<li><a href="#${anchorOf(tag)}">${text(tag)}</a></li>`).join("")}</ul></nav>
${tags.map(([tag, sections]) => `<h2 id="${anchorOf(tag)}">${text(tag)}</h2>\n<p class="muted">${text(descriptions.get(tag))}</p>\n${sections.join("\n")}`).join("\n")}
</main>
</body>
</html>
`;
}
