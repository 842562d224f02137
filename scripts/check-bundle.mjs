// npm run check:bundle: builds the Worker as a deploy would (`wrangler deploy --dry-run`, no account
// needed) and fails when its gzipped size passes the budget in .ci/bundle-budget.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET_FILE = path.join(root, ".ci/bundle-budget.json");
const budget = JSON.parse(readFileSync(BUDGET_FILE, "utf8")).gzip_kib;

const wranglerPackage = createRequire(import.meta.url).resolve("wrangler/package.json");
const wranglerBin = path.join(path.dirname(wranglerPackage), JSON.parse(readFileSync(wranglerPackage, "utf8")).bin.wrangler);

/** What Cloudflare counts: each uploaded module gzipped; source maps and wrangler's README are not uploaded. */
const isUploaded = (name) => !name.endsWith(".map") && name !== "README.md";

const outdir = mkdtempSync(path.join(tmpdir(), "bundle-"));
try {
  const build = spawnSync(process.execPath, [wranglerBin, "deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    encoding: "utf8",
    env: { WRANGLER_SEND_METRICS: "false", ...process.env },
  });
  if (build.status !== 0) {
    console.error(`wrangler deploy --dry-run failed:\n${build.stdout}${build.stderr}`);
    process.exit(1);
  }
  const modules = readdirSync(outdir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && isUploaded(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
  const bytes = modules.reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0);
  const kib = bytes / 1024;
  const shown = `${kib.toFixed(1)} KiB gzipped (${modules.length} module${modules.length === 1 ? "" : "s"})`;
  if (kib > budget) {
    console.error(
      `The Worker bundle is ${shown}, over the budget of ${budget} KiB in .ci/bundle-budget.json by ${(kib - budget).toFixed(1)} KiB.\n` +
        "Find what grew (`npx wrangler deploy --dry-run --outdir /tmp/out --metafile /tmp/meta.json`), or raise the budget\n" +
        "deliberately in a commit that says why (docs/decisions/deploy.md).",
    );
    process.exit(1);
  }
  console.log(`The Worker bundle is ${shown}, within the budget of ${budget} KiB (.ci/bundle-budget.json).`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
