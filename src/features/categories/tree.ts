// The category tree's one rule: a parent must exist and must not sit below the category itself.

/** Why `parentId` cannot be the parent of `selfId` (undefined on create), or null when it can. */
export function parentProblem(parentOf: ReadonlyMap<number, number | null>, parentId: number, selfId?: number): string | null {
  if (!parentOf.has(parentId)) return "does not exist";
  if (parentId === selfId) return "can't be the category itself";
  const seen = new Set<number>();
  for (let id: number | null = parentId; id !== null && !seen.has(id); id = parentOf.get(id) ?? null) {
    if (id === selfId) return "can't be one of the category's descendants";
    seen.add(id);
  }
  return null;
}
