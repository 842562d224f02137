// npm run account:create -- --subdomain S [--time-zone Z] [--country-code C] [--locale L] [--name N] [--email E] [--shard DB_SHARD_1]
// Creates a tenant through the running dev server's operator API and prints the answer.
import { parseArgs } from "node:util";
import { adminToken, call, DEV_URL } from "./local-config.mjs";

const { values } = parseArgs({
  options: {
    subdomain: { type: "string" },
    "time-zone": { type: "string", default: "Europe/Oslo" },
    "country-code": { type: "string", default: "NO" },
    locale: { type: "string", default: "en" },
    name: { type: "string" },
    email: { type: "string" },
    // Default: the least-loaded shard (docs/scaling.md).
    shard: { type: "string" },
  },
});

if (!values.subdomain) {
  console.error("usage: npm run account:create -- --subdomain S [--time-zone Z] [--country-code C] [--locale L] [--name N] [--email E] [--shard DB_SHARD_1]");
  process.exit(2);
}

const account = {
  subdomain: values.subdomain,
  name: values.name ?? values.subdomain,
  email: values.email ?? `owner@${values.subdomain}.example`,
  time_zone: values["time-zone"],
  country_code: values["country-code"],
  locale: values.locale,
  ...(values.shard ? { shard: values.shard } : {}),
};

try {
  const res = await call("POST", "/admin/v1/accounts", { token: adminToken(), body: { account } });
  console.log(JSON.stringify(res.body, null, 2));
  process.exit(res.status === 200 ? 0 : 1);
} catch (error) {
  console.error(`Could not reach ${DEV_URL}: start the server with 'npm run dev' first. (${error.message})`);
  process.exit(1);
}
