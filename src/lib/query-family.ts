// A family of cached queries: every query one generated key builder makes, whatever ids fill its
// path. Lets a change refresh "every answer sheet" without knowing which ones are cached, while the
// paths still come from the contract (the generated builders), not from hand-written patterns.
import type { Query, QueryKey } from '@tanstack/react-query';

/** Stands in for each id when a builder is asked for its path. */
const HOLE = '\u0000';

/** The fixed parts of a builder's path, around its ids. */
export type PathTemplate = readonly string[];

export function pathTemplate(build: (hole: string) => QueryKey): PathTemplate {
  return String(build(HOLE)[0]).split(HOLE);
}

/** Whether `path` is the template with each id filled by one path segment. */
export function fillsTemplate(path: string, template: PathTemplate): boolean {
  const [head = '', ...tails] = template;
  if (!path.startsWith(head)) return false;
  let rest = path.slice(head.length);
  for (const tail of tails) {
    const end = tail === '' ? rest.length : rest.indexOf(tail, 1);
    const id = rest.slice(0, end);
    if (end <= 0 || id.includes('/')) return false;
    rest = rest.slice(end + tail.length);
  }
  return rest === '';
}

/** A predicate for `invalidateQueries`: the query belongs to one of the builders' families. */
export function inFamilies(builders: readonly ((hole: string) => QueryKey)[]): (query: Query) => boolean {
  const templates = builders.map(pathTemplate);
  return (query) => {
    const path = query.queryKey[0];
    return typeof path === 'string' && templates.some((template) => fillsTemplate(path, template));
  };
}
