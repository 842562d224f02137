// What `moment-timezone` resolves to in the deployed bundle (wrangler.toml, [alias]): the same
// library with the data of the zones the holiday engine converts in (src/domain/holiday-zones.json,
// written by `npm run holidays:generate`) instead of every zone's. The package's main module is
// this one with all of data/packed/latest.json loaded, about 33 KiB gzipped that no answer reads.
// @ts-expect-error: the package types only its main module, which has the same API.
import moment from "moment-timezone/moment-timezone.js";
import zones from "./holiday-zones.json";

(moment as typeof import("moment-timezone")).tz.load(zones);

export default moment as typeof import("moment-timezone");
