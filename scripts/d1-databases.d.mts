export function d1Databases(config?: string): { binding: string; migrationsDir: string }[];
