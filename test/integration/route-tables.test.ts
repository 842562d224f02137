// The route tables the app registers at start-up (src/features/route-tables.ts) are each feature's
// own routes: same methods, patterns and order, so the router answers as if the feature were loaded.
import { describe, expect, it } from "vitest";
import { routeLoaders, type FeatureRoutes } from "../../src/features/loaders";
import { ROUTE_TABLES } from "../../src/features/route-tables";

describe("the features' route tables", () => {
  it("name one loader each", () => {
    expect(Object.keys(ROUTE_TABLES).sort()).toEqual(Object.keys(routeLoaders).sort());
  });

  for (const feature of Object.keys(routeLoaders) as FeatureRoutes[]) {
    it(`are ${feature}'s routes, entry by entry (else run npm run routes:tables)`, async () => {
      const routes = (await routeLoaders[feature]()).routes.map(({ method, path }) => [method, path]);
      expect(ROUTE_TABLES[feature]).toEqual(routes);
    });
  }
});
