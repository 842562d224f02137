// The API reference page's script as a static asset of the Worker (docs/decisions/openapi.md):
// copied from the pinned `@scalar/api-reference` in node_modules into the assets directory, so the
// page loads nothing from elsewhere and its version is the one package-lock.json names. Run by
// `npm run dev`, `npm run deploy`, `npm run check:bundle`, both vitest configs and the bench; by
// hand: `node scripts/reference-assets.mjs`.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** wrangler.toml's `[assets] directory`, absolute: the one place that names it. */
export function assetsDirectory() {
  const { assets } = unstable_readConfig({ config: path.join(root, "wrangler.toml") }, { hideWarnings: true });
  if (!assets?.directory) throw new Error("wrangler.toml has no [assets] directory");
  return path.resolve(root, assets.directory);
}

/** Under /assets/, a prefix no route of the API or the booking site uses (src/openapi/reference-page.ts). */
const SCRIPT_PATH = "assets/api-reference/standalone.js";

function bundledScript() {
  // The package exports no subpath for it; its package.json names it as the `browser` build: one
  // file, no chunks, which reads its settings from data attributes.
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference"); // <package>/dist/index.js
  const packageDir = path.dirname(path.dirname(entry));
  const { browser } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
  return path.join(packageDir, browser);
}

/** Copies the script when it is missing or differs, so a running `wrangler dev` is not reloaded for nothing. */
export function copyReferenceAssets() {
  const source = bundledScript();
  const target = path.join(assetsDirectory(), SCRIPT_PATH);
  if (existsSync(target) && readFileSync(target).equals(readFileSync(source))) return;
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(source, target);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) copyReferenceAssets();
