export function startMailCatcher(options: {
  smtpPort?: number;
  webPort?: number;
}): Promise<{ smtpHost: string; smtpPort: number; inbox: string; close(): Promise<void> }>;
