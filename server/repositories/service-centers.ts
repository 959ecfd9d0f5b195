// The service_centers table: where files come from and where their return files go.
import type { Database } from '../db/database';

/** The country of a service center; null when there is no such center. */
export async function countryOfSplitServiceCenter(db: Database, serviceCenterId: string): Promise<{ country_iso: string | null } | null> {
  return db.maybeOne<{ country_iso: string | null }>('SELECT country_iso FROM service_centers WHERE id = $1', [serviceCenterId]);
}
