// The words the mock world is made of: the programme of the demo data (service centers, their
// recruiting points and recruiters, congregations, courses), names and countries.
import type { components } from '../../../../generated/api-types';
import {
  CONGREGATIONS as PROGRAMME_CONGREGATIONS,
  COURSES,
  EMPLOYMENTS,
  FIRST_NAMES,
  LAST_NAMES,
  SERVICE_CENTERS as PROGRAMME_CENTERS,
  STUDY_HELPERS,
} from '../../../../demo/programme';

type Country = components['schemas']['Country'];

export const COUNTRIES: readonly Country[] = [
  { iso_code: 'GH', display_name: 'Ghana' },
  { iso_code: 'KE', display_name: 'Kenya' },
  { iso_code: 'PH', display_name: 'Philippines' },
  { iso_code: 'NG', display_name: 'Nigeria' },
  { iso_code: 'UG', display_name: 'Uganda' },
  { iso_code: 'ZM', display_name: 'Zambia' },
  { iso_code: 'IN', display_name: 'India' },
  { iso_code: 'US', display_name: 'United States of America' },
  { iso_code: 'GB', display_name: 'United Kingdom of Great Britain and Northern Ireland' },
  { iso_code: 'TZ', display_name: 'Tanzania, United Republic of' },
  { iso_code: 'MW', display_name: 'Malawi' },
  { iso_code: 'ZA', display_name: 'South Africa' },
  { iso_code: 'CM', display_name: 'Cameroon' },
  { iso_code: 'LR', display_name: 'Liberia' },
  { iso_code: 'SL', display_name: 'Sierra Leone' },
  { iso_code: 'JM', display_name: 'Jamaica' },
  { iso_code: 'HT', display_name: 'Haiti' },
  { iso_code: 'PG', display_name: 'Papua New Guinea' },
];

// The programme is the demo's (demo/programme), shared with the seeded server; here in the
// shapes the world's builders take.
export const SERVICE_CENTERS = PROGRAMME_CENTERS.map((center) => ({
  ...center,
  recruitingPoints: center.recruitingPoints.map((point) => [point.name, point.location] as const),
  recruiters: center.recruiters.map((recruiter) => [recruiter.name, recruiter.contact] as const),
}));

export const CONGREGATIONS = PROGRAMME_CONGREGATIONS.map((congregation) => [congregation.wbs_code, congregation.display_name] as const);

export const HELPER_NAMES = STUDY_HELPERS.flat();

export { COURSES, EMPLOYMENTS, FIRST_NAMES, LAST_NAMES };
