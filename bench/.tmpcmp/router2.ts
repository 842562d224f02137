import { RegExpRouter } from "hono/router/reg-exp-router";
import { buildApp } from "/work/main/src/app";
const app = buildApp();
const routes: any[] = (app as any).routes;
const r = new RegExpRouter<any>();
for (const x of routes) r.add(x.method, x.path, x.handler);
try { r.match("GET", "/services"); console.log("ok"); } catch (e) { console.log("err", String(e)); }
// find culprit by bisecting
const good: any[] = [];
for (const x of routes) {
  const t = new RegExpRouter<any>();
  for (const y of [...good, x]) t.add(y.method, y.path, y.handler);
  try { t.match("GET", "/x"); good.push(x); } catch (e) { console.log("bad route", x.method, x.path); }
}
console.log(routes.length, "routes");
