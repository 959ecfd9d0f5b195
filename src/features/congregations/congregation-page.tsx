// The frame shared by the congregation pages (/admin/congregations/{group_id}/…): the page's
// title with the congregation's code and name under it, the side links, then the page's content.
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { useGetCongregation } from '../../../generated/hooks/congregations/congregations';
import { SideNavLayout } from '../../components/page-layout/side-nav-layout';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';
import { CongregationSideLinks, type CongregationPageId } from './congregation-side-links';

export const CONGREGATION_NOT_FOUND = 'This congregation does not exist.';

/** The route's group_id (the routes of these pages always have one). */
export function useGroupId(): string {
  return useParams<'group_id'>().group_id ?? '';
}

export interface CongregationPageProps {
  groupId: string;
  current: CongregationPageId;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}

export function CongregationPage({ groupId, current, title, actions, children }: CongregationPageProps) {
  const congregation = useGetCongregation(groupId);
  const missing = congregation.error instanceof ApiError && congregation.error.status === 404;
  // Another congregation's pages, for a coordinator: a refusal, not a failure.
  const refused = isRefused(congregation.error);
  const subtitle = congregation.data
    ? [congregation.data.wbs_code, congregation.data.display_name].filter(Boolean).join(' · ')
    : undefined;
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} actions={missing || refused ? undefined : actions} />
      {missing ? (
        <p role="alert">{CONGREGATION_NOT_FOUND}</p>
      ) : refused ? (
        <p role="alert">{notAvailable('congregation')}</p>
      ) : (
        <SideNavLayout label="Congregation" nav={<CongregationSideLinks groupId={groupId} current={current} />}>
          {children}
        </SideNavLayout>
      )}
    </>
  );
}
