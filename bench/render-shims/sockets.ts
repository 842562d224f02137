// Stands in for `cloudflare:sockets` in the render bench's Node bundle: worker-mailer imports it at
// load, and the bench writes the MIME message without ever connecting.
export function connect(): never {
  throw new Error("the render bench opens no socket");
}
