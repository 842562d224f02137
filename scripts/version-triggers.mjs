// npm run db:triggers [-- availability|listing|calendar|booking_hour]: prints the version triggers that src/db/invalidation.ts
// states, as a migration holds them. A new rule there is shipped as a new migration: create an empty
// one (`npx drizzle-kit generate --custom --name <name>`), paste the changed triggers (DROP TRIGGER
// first when one is replaced), and test/integration/invalidation.test.ts checks the result.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundled = await build({
  entryPoints: [path.join(root, "src/db/invalidation.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "error",
});
const { VERSIONED_ANSWERS, versionTriggers, bookingHourTriggers } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`
);

const triggers = { ...Object.fromEntries(VERSIONED_ANSWERS.map((a) => [a.tag, versionTriggers(a)])), booking_hour: bookingHourTriggers() };
const wanted = process.argv[2];
if (wanted && !triggers[wanted]) {
  console.error(`Unknown triggers "${wanted}": one of ${Object.keys(triggers).join(", ")}.`);
  process.exit(2);
}
const chosen = wanted ? triggers[wanted] : Object.values(triggers).flat();
console.log(chosen.map((t) => `${t.sql};`).join("\n--> statement-breakpoint\n"));
