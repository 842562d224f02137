import { describe, expect, it } from "vitest";
import { filter } from "../support/network-error-echo";

const STACK = "stack: /x/workerd@33a76d0 /x/workerd@33a836c";

function captured() {
  const lines: string[] = [];
  const stream = {
    write: (chunk: string) => {
      lines.push(chunk);
      return true;
    },
  };
  filter(stream);
  return { stream, lines };
}

describe("the test run's filter of miniflare's network-error echoes", () => {
  it("drops the three lines miniflare's outbound Worker makes workerd print for a handled connection failure", () => {
    const { stream, lines } = captured();
    stream.write("uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n");
    stream.write(`uncaught exception; exception = workerd/jsg/value.h:1477: disconnected: jsg.Error: Network connection lost.\n${STACK}\n`);
    stream.write(`exception = kj/async-io-unix.c++:1535: disconnected: connect(): Connection refused\n${STACK}\n`);
    stream.write(`exception = kj/async-io.c++:60: disconnected: stream disconnected prematurely\n${STACK}\n`);
    expect(lines).toEqual([]);
  });

  it("keeps every other uncaught exception, error and test output", () => {
    const { stream, lines } = captured();
    const kept = [
      "uncaught exception; source = Uncaught (in promise); stack = TypeError: x is not a function\n",
      "uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n    at deliver (src/features/webhooks/deliver.ts:37)\n",
      `exception = kj/async-io.c++:60: disconnected: something else\n${STACK}\n`,
      " ✓ workers test/integration/faults-webhooks.test.ts (5 tests)\n",
    ];
    for (const line of kept) stream.write(line);
    expect(lines).toEqual(kept);
  });
});
