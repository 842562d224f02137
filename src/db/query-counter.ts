// Counts the statements a request sends to D1, so endpoints with a query budget can prove it
// (answered in `Server-Timing`) without a mock of D1.
export function countingD1(d1: D1Database): { d1: D1Database; statements: () => number } {
  let statements = 0;
  const counted = new Proxy(d1, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "prepare" && typeof value === "function") {
        return (query: string) => {
          statements += 1;
          return value.call(target, query);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: counted, statements: () => statements };
}
