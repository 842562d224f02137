// The generated document is valid OpenAPI 3.1 (checked by an independent validator) and carries
// the conventions every integrator needs: security, encodings, errors, headers and webhooks.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/openapi/document";
import { WEBHOOK_EVENTS } from "../../../src/features/webhooks/emit";

const doc = openApiDocument();

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("describes private routes with Bearer and deprecated Basic, and the booking site with none", () => {
    expect(doc.paths["/api/v1/bookings"].get.security).toEqual([{ bearerAuth: [] }, { basicAuth: [] }]);
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: "http", scheme: "basic" });
    expect(doc.paths["/bookings"].post.security).toEqual([]);
    expect(doc.paths["/bookings"].servers[0].url).toBe("{scheme}://{subdomain}.{root_domain}");
    expect(doc.paths["/admin/v1/accounts"].post.security).toEqual([{ operatorToken: [] }]);
  });

  it("declares security on every operation and webhook, `[]` where no key is asked", () => {
    const operations = [...Object.entries<any>(doc.paths), ...Object.entries<any>(doc.webhooks)].flatMap(([path, item]) =>
      ["get", "put", "post", "delete", "patch"].filter((m) => item[m]).map((m) => ({ at: `${m.toUpperCase()} ${path}`, security: item[m].security })),
    );
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((op) => !Array.isArray(op.security)).map((op) => op.at)).toEqual([]);
    expect(doc.webhooks["booking.created"].post.security).toEqual([]);
    expect(doc.paths["/api/v1/openapi.json"].get.security).toEqual([]);
  });

  it("describes every tag, and every tag an operation names is one of them", () => {
    const used = [...Object.values<any>(doc.paths), ...Object.values<any>(doc.webhooks)].flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags ?? []));
    expect(doc.tags.filter((tag: any) => !tag.description?.trim()).map((tag: any) => tag.name)).toEqual([]);
    expect(new Set(doc.tags.map((tag: any) => tag.name))).toEqual(new Set(used));
  });

  it("accepts bodies as JSON and as bracket forms (deepObject)", () => {
    const content = doc.paths["/api/v1/bookings"].post.requestBody.content;
    expect(content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CreateBookingBody" });
    expect(content["application/x-www-form-urlencoded"].encoding.booking).toEqual({ style: "deepObject", explode: true });
  });

  it("says how a datetime and a date are written", () => {
    const booking = doc.components.schemas.CreateBookingBody.properties.booking.properties;
    expect(booking.booked_from.description).toContain("YYYY-MM-DD hh:mm");
    const from = doc.paths["/api/v1/services/{id}/slots"].get.parameters.find((p: any) => p.name === "from");
    expect(from.schema).toMatchObject({ type: "string", format: "date" });
  });

  it("describes id lists in queries as repeated (form) parameters", () => {
    const serviceId = doc.paths["/api/v1/bookings"].get.parameters.find((p: any) => p.name === "service_id");
    expect(serviceId).toMatchObject({ in: "query", style: "form", explode: true });
    expect(JSON.stringify(serviceId.schema)).toContain('"type":"array"');
  });

  it("answers wrapped objects, closed so an unknown field is a drift", () => {
    expect(doc.components.schemas.BookingAnswer).toMatchObject({
      properties: { booking: { $ref: "#/components/schemas/Booking" } },
      required: ["booking"],
      additionalProperties: false,
    });
    expect(doc.components.schemas.Booking.additionalProperties).toBe(false);
  });

  it("documents error bodies per status, rate-limit, Retry-After and pagination headers, and Idempotency-Key", () => {
    const get = doc.paths["/api/v1/bookings"].get;
    expect(get.responses["400"]).toEqual({ $ref: "#/components/responses/BadRequest" });
    expect(doc.components.responses.BadRequest.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/AttributeErrors" });
    expect(doc.components.responses.NotFound.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(Object.keys(doc.components.responses.TooManyRequests.headers)).toContain("Retry-After");
    expect(Object.keys(get.responses["200"].headers)).toEqual(expect.arrayContaining(["RateLimit-Remaining", "Link", "Total-Count"]));
    expect(doc.paths["/api/v1/bookings"].post.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
  });

  it("lists every webhook event with its payload and signature headers", () => {
    expect(Object.keys(doc.webhooks)).toHaveLength(WEBHOOK_EVENTS.length);
    const created = doc.webhooks["booking.created"].post;
    expect(created.parameters.map((p: any) => p.name)).toContain("X-Service-Signature");
    expect(created.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WebhookPayloadBooking" });
  });
});
