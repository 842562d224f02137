import { buildApp } from "/work/main/src/app";
const app = buildApp();
const r: any = (app as any).router;
console.log("router", r.name, r.constructor?.name);
try { r.match("GET", "/services"); } catch (e) { console.log("match err", String(e)); }
console.log("active", r.activeRouter?.name ?? r.name);
