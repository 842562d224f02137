// Types of deploy-plan.mjs for the TypeScript tests.
import type { Unstable_Config } from "wrangler";

export interface DeployArgs {
  config?: string;
  env?: string;
  /** The configuration-selecting flags in long form (`--config`, path), repeated on each migration. */
  configArgs: string[];
  dryRun: boolean;
  /** Every argument, for `wrangler deploy`. */
  deployArgs: string[];
}

/** The parts of a wrangler configuration a deploy plans from. */
export interface DeployConfig {
  d1_databases?: { binding: string; database_name?: string; database_id?: string }[];
  vars?: Record<string, unknown>;
}

export function parseDeployArgs(argv: string[]): DeployArgs;
export function deployProblems(config: DeployConfig): string[];
export function deployCommands(config: DeployConfig, args: DeployArgs): { migrations: string[][]; deploy: string[] };
export function readDeployConfig(args: DeployArgs): Unstable_Config;
export const REQUIRED_SECRETS: string[];
export function secretProblems(names: string[] | null): string[];
export function secretListCommand(args: DeployArgs): string[];
