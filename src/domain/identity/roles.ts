export const roles = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof roles)[number];

const rank: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

export function roleAtLeast(role: Role | null, minimum: Role): boolean {
  return role !== null && rank[role] >= rank[minimum];
}

/** The highest of the given roles (null when none). */
export function highestRole(list: (Role | null)[]): Role | null {
  let best: Role | null = null;
  for (const r of list) if (r !== null && (best === null || rank[r] > rank[best])) best = r;
  return best;
}
