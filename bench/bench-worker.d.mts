export const STARTUP_DEADLINE_MS: number;
export function buildFailure(output: string): string | undefined;
export function waitForServer(options: {
  what: string;
  probe: (signal: AbortSignal) => Promise<boolean>;
  output: () => string;
  exited?: () => boolean;
}): Promise<void>;
export function emptyEnvFile(root: string): string;
