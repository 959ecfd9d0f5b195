// What a screen module shows before its real content is written: only its route's title.
import type { RouteEntry } from '../../config/paths';
import { PageHeader } from './page-header';

export function RouteTitle({ route }: { route: RouteEntry }) {
  return <PageHeader title={route.title} />;
}
