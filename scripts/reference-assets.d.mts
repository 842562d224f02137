export function assetsDirectory(): string;
export function copyReferenceAssets(): void;
