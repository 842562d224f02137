export function startStripeStandIn(options?: { port?: number; webhookSecret?: string; deliverTo?: string }): Promise<{ origin: string; close(): Promise<void> }>;
