// What `ajv` and `ajv-formats` resolve to in the deployed bundle (wrangler.toml, [alias]). The
// MCP SDK's server imports its ajv validator eagerly but builds it only when no other is given;
// this Worker always gives the cfworker one (features/mcp/server.ts), because ajv compiles with
// `new Function`, which workerd refuses. Leaving ajv out saves about 290 KB of script that no
// request could run. Reaching this is a bug, said as such.
export default function ajvUnbundled(): never {
  throw new Error("ajv is not bundled in this Worker: pass the MCP SDK the CfWorkerJsonSchemaValidator.");
}
