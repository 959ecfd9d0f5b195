// Who presents the portal: the texts of the login landing and the footer (spec §2 "Page chrome").
// Set per deployment through Vite env variables; the defaults are neutral.
const env = import.meta.env;

function setting(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

export const organisation = {
  /** The portal's title on the login landing and in the browser tab. */
  portalTitle: setting(env.VITE_PORTAL_TITLE, 'Bible Study Portal'),
  /** The organisation that presents the portal ("presented by" line, footer copyright). */
  name: setting(env.VITE_ORGANISATION_NAME, 'Bible Correspondence School'),
  privacyPolicyUrl: setting(env.VITE_PRIVACY_POLICY_URL, 'https://www.example.org/privacy-policy'),
  termsOfUseUrl: setting(env.VITE_TERMS_OF_USE_URL, 'https://www.example.org/terms-of-use'),
} as const;

/** The footer's copyright year (spec: a 2024 copyright for the organisation). */
export const COPYRIGHT_YEAR = 2024;
