// npm run lint:openapi: builds the OpenAPI document the Worker serves (src/openapi/document.ts,
// bundled with esbuild and run in Node, so no server is needed), writes it to a temporary file and
// lints it with Redocly's recommended rules (redocly.yaml). Exits non-zero on any error.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const redoclyPackage = createRequire(import.meta.url).resolve("@redocly/cli/package.json");
const redoclyBin = path.join(path.dirname(redoclyPackage), JSON.parse(readFileSync(redoclyPackage, "utf8")).bin.redocly);

const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
try {
  // Dependencies bundled too: the temporary directory has no node_modules to resolve them from.
  const module = path.join(dir, "document.mjs");
  await build({
    stdin: { contents: 'export { openApiDocument } from "./src/openapi/document.ts";', resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: module,
    logLevel: "error",
  });
  const { openApiDocument } = await import(pathToFileURL(module).href);
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));

  const lint = spawnSync(process.execPath, [redoclyBin, "lint", file, "--config", path.join(root, "redocly.yaml")], {
    cwd: root,
    stdio: "inherit",
    // No usage reports and no update check: the lint must not reach the network.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (lint.status !== 0) {
    console.error(
      `redocly lint failed${lint.status === null ? ` (${lint.signal})` : ` with exit code ${lint.status}`}: the document above (${file}) breaks redocly.yaml's rules.`,
    );
    process.exitCode = lint.status || 1;
  }
} finally {
  if (!process.exitCode) rmSync(dir, { recursive: true, force: true });
}
