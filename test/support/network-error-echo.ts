// Miniflare puts its own JavaScript Worker (miniflare/dist/src/workers/core/outbound.worker.js)
// between every Worker and the network. When a connection fails, that Worker re-throws the error
// to the caller and workerd logs it, with the connect or stream error under it, as an "uncaught
// exception … Network connection lost", even when the Worker under test catches it, as the web
// hook delivery does (a caught `fetch("http://127.0.0.1:1/")` prints the same). The tests stage
// such failures on purpose (the receiver's `down` fault), so these lines are the toolchain's echo
// of a handled error, not a fault of the product. This drops exactly those lines from the pool's
// output; WORKERD_NETWORK_ERRORS=show keeps them (docs/decisions/toolchain.md).
const ECHOES = [
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: Network connection lost\.\n?$/,
  /^uncaught exception; exception = \S+: disconnected: jsg\.Error: Network connection lost\.\nstack:[^\n]*\n?$/,
  /^exception = kj\/async-io[\w-]*\.c\+\+:\d+: disconnected: (connect\(\): Connection refused|stream disconnected prematurely)\nstack:[^\n]*\n?$/,
];

export function hideNetworkErrorEchoes() {
  if (process.env.WORKERD_NETWORK_ERRORS === "show") return;
  // The pool writes workerd's log lines to stdout or stderr by their level.
  for (const stream of [process.stdout, process.stderr]) filter(stream as unknown as Writable);
}

/** What `filter` needs of a stream: its `write`, which it wraps. */
interface Writable {
  write(chunk: unknown, ...rest: unknown[]): boolean;
}

export function filter(stream: Writable) {
  const write = stream.write.bind(stream);
  stream.write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && ECHOES.some((echo) => echo.test(chunk))) {
      const done = rest.find((arg): arg is () => void => typeof arg === "function");
      done?.();
      return true;
    }
    return write(chunk, ...rest);
  };
}
