export function catcherVarArgs(catcher: { smtpHost: string; smtpPort: number }, from: string): string[];
export function startMailCatcher(options: {
  smtpPort?: number;
  webPort?: number;
}): Promise<{ smtpHost: string; smtpPort: number; inbox: string; close(): Promise<void> }>;
