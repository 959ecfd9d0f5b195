// /admin/service-centers/{service_center_id} (spec §2): a heading with the country's flag, the
// center's name and location; its batch cover sheet (PDF); the Recruiting Points, Recruiters and
// Contact Persons panels and the blank lesson masters it hands out; and the delete action, shown as a disabled "Archive" as the spec has it (the contract's delete of a
// service center made by mistake is for API clients).
import { Button } from 'primereact/button';
import { useParams } from 'react-router-dom';
import { getPrintServiceCenterCoverSheetUrl, useGetServiceCenter } from '../../../generated/hooks/service-centers/service-centers';
import { CountryFlag } from '../../components/list/country-flag';
import { BackLink } from '../../components/page-layout/back-link';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { ContactPersonsPanel } from './contact-persons-panel';
import { LessonMastersPanel } from './lesson-masters-panel';
import { RecruitersPanel } from './recruiters-panel';
import { RecruitingPointsPanel } from './recruiting-points-panel';

export const SERVICE_CENTER_NOT_FOUND = 'Service center not found';

export default function ServiceCenterDetail() {
  const id = useParams<'service_center_id'>().service_center_id ?? '';
  const center = useGetServiceCenter(id);

  const back = <BackLink to={paths.serviceCenters()} label="Back to Service Centers" />;
  if (center.isLoading) return <Loading />;
  if (!center.data) {
    const missing = center.error instanceof ApiError && center.error.status === 404;
    return (
      <>
        {back}
        <PageHeader title={missing ? SERVICE_CENTER_NOT_FOUND : 'Could not load this service center.'} />
      </>
    );
  }
  const sc = center.data;
  return (
    <>
      {back}
      <PageHeader
        title={
          <span className="picker-option">
            <CountryFlag iso_code={sc.country.iso_code} display_name={sc.country.display_name} height={24} />
            <span>{sc.name}</span>
          </span>
        }
        subtitle={sc.location}
        actions={
          <>
            <a className="p-button p-button-outlined link-button" href={getPrintServiceCenterCoverSheetUrl(sc.id)} target="_blank" rel="noopener">
              <span className="pi pi-file-pdf" aria-hidden="true" />
              <span>Cover Sheet</span>
            </a>
            <Button
              type="button"
              label="Archive"
              icon="pi pi-box"
              severity="secondary"
              outlined
              disabled
              tooltip="Archiving service centers is not available yet"
              tooltipOptions={{ showOnDisabled: true, position: 'left' }}
            />
          </>
        }
      />
      <div className="panel-grid">
        <RecruitingPointsPanel serviceCenterId={sc.id} />
        <RecruitersPanel serviceCenterId={sc.id} />
        <ContactPersonsPanel serviceCenterId={sc.id} />
        <LessonMastersPanel />
      </div>
    </>
  );
}
