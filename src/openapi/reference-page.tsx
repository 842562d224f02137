// The HTML of GET /api/v1/docs (hono/jsx, rendered on the server, like the booking page): the
// OpenAPI document tag by tag, so the page needs no script at all and nothing from another host
// (issue 20; docs/decisions/openapi.md, "Reference page"). Its stylesheet is served beside it.

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, walked freely
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

const METHODS = ["get", "post", "put", "patch", "delete"];

/** `#/components/schemas/Booking` → `Booking`; anything else as its JSON type. */
const schemaName = (schema: Json | undefined): string => (schema?.$ref ? String(schema.$ref).split("/").pop()! : schema?.type ? String(schema.type) : "object");

const anchorOf = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function Parameters({ parameters }: { parameters: Json[] }) {
  if (parameters.length === 0) return null;
  return (
    <table>
      <thead>
        <tr>
          <th>parameter</th>
          <th>in</th>
          <th>required</th>
          <th>description</th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((p) => (
          <tr>
            <td>
              <code>{String(p.name)}</code>
            </td>
            <td>{String(p.in)}</td>
            <td>{p.required ? "yes" : ""}</td>
            <td>{String(p.description ?? "")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Operation({ path, method, op }: { path: string; method: string; op: Json }) {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const answers = Object.entries(op.responses ?? {}).map(([status, answer]) => `${status} ${String((answer as Json).description ?? "")}`);
  return (
    <section id={anchorOf(`${method} ${path}`)}>
      <h3>
        <span class="method">{method}</span> <code>{path}</code>
      </h3>
      <p>{String(op.summary ?? "")}</p>
      {op.description ? <p class="muted">{String(op.description)}</p> : null}
      <Parameters parameters={(op.parameters ?? []) as Json[]} />
      {body ? (
        <p>
          Body: <code>{schemaName(body)}</code>
        </p>
      ) : null}
      <p class="muted">{answers.join(" · ")}</p>
    </section>
  );
}

type Entry = { path: string; method: string; op: Json };

/** Every operation under its first tag, the tags in the document's order, then the webhooks (what this API sends) by event name. */
function operationsByTag(document: Json): [string, Entry[]][] {
  const byTag = new Map<string, Entry[]>(((document.tags ?? []) as Json[]).map((t) => [String(t.name), []]));
  const add = (entry: Entry, fallback: string) => {
    const tag = String(entry.op.tags?.[0] ?? fallback);
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push(entry);
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) if ((item as Json)[method]) add({ path, method, op: (item as Json)[method] }, "Other");
  }
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    if ((item as Json).post) add({ path: name, method: "post", op: (item as Json).post }, "Webhook payloads");
  }
  return [...byTag].filter(([, entries]) => entries.length > 0);
}

/** The whole page as sent: the routes module stays free of JSX, so hono/jsx loads with this module. */
export const referencePageHtml = (document: Json, documentUrl: string): string => `<!doctype html>${<ReferencePage document={document} documentUrl={documentUrl} />}`;

export function ReferencePage({ document, documentUrl }: { document: Json; documentUrl: string }) {
  const descriptions = new Map(((document.tags ?? []) as Json[]).map((t) => [String(t.name), String(t.description ?? "")]));
  const tags = operationsByTag(document);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{String(document.info?.title ?? "")}</title>
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href={REFERENCE_STYLESHEET_PATH} />
      </head>
      <body>
        <main>
          <h1>
            {String(document.info?.title ?? "")} <span class="muted">{String(document.info?.version ?? "")}</span>
          </h1>
          <p>{String(document.info?.description ?? "")}</p>
          <p>
            The machine-readable description:{" "}
            <a href={documentUrl}>
              <code>{documentUrl}</code>
            </a>{" "}
            (OpenAPI {String(document.openapi)}).
          </p>
          <nav>
            <ul>
              {tags.map(([tag]) => (
                <li>
                  <a href={`#${anchorOf(tag)}`}>{tag}</a>
                </li>
              ))}
            </ul>
          </nav>
          {tags.map(([tag, entries]) => (
            <>
              <h2 id={anchorOf(tag)}>{tag}</h2>
              <p class="muted">{descriptions.get(tag) ?? ""}</p>
              {entries.map((entry) => (
                <Operation {...entry} />
              ))}
            </>
          ))}
        </main>
      </body>
    </html>
  );
}
