/**
 * `limit`/`offset` paging of list routes (plain JSON arrays, DESIGN §5). A limit above the
 * maximum is refused with 422 rather than silently cut, so a client never mistakes a short page
 * for the end of the list.
 */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export const pagingProperties = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Rows per page (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}).` },
  offset: { type: 'integer', minimum: 0, default: 0, description: 'Rows to skip.' },
} as const;

export function pageOf(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
}
