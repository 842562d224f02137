// The contract check every integration request passes through (send() in api.ts): a documented
// route's answer must have a documented status and match that status's JSON schema.
import { Validator } from "@cfworker/json-schema";
import { openApiDocument } from "../../src/openapi/document";

type Json = Record<string, any>;

const doc = openApiDocument();

/**
 * Routes whose answer is known to differ from the document while a change is under way; when the
 * app answers as documented the check says to drop the entry. Empty when nothing is in flight.
 */
const KNOWN_DRIFT = new Set<string>();

interface Template {
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
}

const templates: Template[] = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((k) => k !== "servers")
    .map((method) => ({
      method,
      path,
      // Hono matches a parameter as one path segment.
      pattern: new RegExp(`^${path.replace(/\./g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
      params: (path.match(/\{/g) ?? []).length,
    })),
);

/** The documented route a request reaches; static segments win over parameters, as in the app. */
export function documentedRoute(method: string, url: string): Template | undefined {
  let path = new URL(url, "http://x").pathname;
  if (path.endsWith(".json") && !path.endsWith("/openapi.json")) path = path.slice(0, -".json".length);
  return templates.filter((t) => t.method === method.toLowerCase() && t.pattern.test(path)).sort((a, b) => a.params - b.params)[0];
}

const deref = (value: Json): Json =>
  typeof value?.$ref === "string"
    ? value.$ref
        .slice(2)
        .split("/")
        .reduce((o: Json, k: string) => o[k], doc)
    : value;

const validators = new Map<string, Validator>();
function validatorFor(key: string, schema: Json): Validator {
  let v = validators.get(key);
  if (!v) {
    // The components travel with the schema so its `#/components/...` references resolve.
    v = new Validator({ ...schema, components: doc.components } as any, "2020-12", false);
    validators.set(key, v);
  }
  return v;
}

/** Why an answer breaks the document, or null when it keeps to it (or the route is not documented). */
export function contractViolation(method: string, url: string, status: number, contentType: string | null, body: unknown): string | null {
  const route = documentedRoute(method, url);
  if (!route) return null;
  const where = `${method.toUpperCase()} ${route.path} → ${status}`;
  const responses = doc.paths[route.path][route.method].responses as Json;
  const documented = responses[String(status)];
  if (!documented) return `${where}: status not documented (documented: ${Object.keys(responses).join(", ")})`;
  const json = deref(documented).content?.["application/json"];
  if (!json) return null;
  if (!(contentType ?? "").includes("json")) return `${where}: answered ${contentType}, documented JSON`;
  const key = `${route.method} ${route.path} ${status}`;
  const { valid, errors } = validatorFor(key, json.schema).validate(body);
  const drift = KNOWN_DRIFT.has(`${route.method} ${route.path}`) && status === 200;
  if (drift) return valid ? `${where}: matches the document now; remove it from KNOWN_DRIFT` : null;
  if (valid) return null;
  // The deepest errors say what is wrong; the "subschema had errors" chain above them does not.
  const detail = errors.filter((e) => !/subschema|does not match|did not match/i.test(e.error)).slice(0, 5);
  return `${where}: answer does not match the document: ${JSON.stringify(detail.length ? detail : errors.slice(0, 5))}\nbody: ${JSON.stringify(body).slice(0, 800)}`;
}
