// Paging of every list call: skip/limit as the contract gives them (defaults already applied by
// the contract plugin) and one answer shape {items, total, skip, limit}.
import type { Page } from '../../repositories/sql/paging';

export type { Page };

/** Fallbacks for callers that bypass the contract plugin; the contract says skip 0, limit 10. */
export const DEFAULT_SKIP = 0;
export const DEFAULT_LIMIT = 10;

export function pageOf(query: { skip?: number; limit?: number }): Page {
  return { skip: query.skip ?? DEFAULT_SKIP, limit: query.limit ?? DEFAULT_LIMIT };
}

export function paged<T>(items: T[], total: number, page: Page): { items: T[]; total: number; skip: number; limit: number } {
  return { items, total, skip: page.skip, limit: page.limit };
}

