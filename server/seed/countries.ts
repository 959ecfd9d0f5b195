// Reference data every installation needs: all ISO 3166 countries with English names.
// Loaded at every start (and by test databases); an upsert, so it is cheap and idempotent.
import { createRequire } from 'node:module';
import type { Database } from '../db/database.js';

// The package's main module registers every one of its 100+ languages: 10 MB of memory in every
// server process, for names kept in English. Its core and the English names alone.
const require = createRequire(import.meta.url);
const countries = require('i18n-iso-countries/index') as typeof import('i18n-iso-countries');
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as import('i18n-iso-countries').LocaleData);

export function countryList(): { iso_code: string; display_name: string }[] {
  return Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([iso_code, display_name]) => ({ iso_code, display_name }))
    .sort((a, b) => a.iso_code.localeCompare(b.iso_code));
}

/** A country's English name, as the countries table holds it ('' for an unknown code). */
export function countryName(isoCode: string): string {
  return countries.getName(isoCode, 'en', { select: 'official' }) ?? '';
}

/** Loads the reference data; not inside a transaction (it ends with VACUUM). */
export async function loadReferenceData(db: Database): Promise<void> {
  const list = countryList();
  await db.query(
    `INSERT INTO countries (iso_code, display_name)
     SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (iso_code) DO UPDATE SET display_name = EXCLUDED.display_name
     WHERE countries.display_name IS DISTINCT FROM EXCLUDED.display_name`,
    [list.map((country) => country.iso_code), list.map((country) => country.display_name)],
  );
  // Marks the table's pages all-visible, so lists read names from countries_iso_code_name_idx
  // alone (see migration 008). Autovacuum would not: 250 rows are below its thresholds.
  await db.exec('VACUUM (ANALYZE) countries');
}
