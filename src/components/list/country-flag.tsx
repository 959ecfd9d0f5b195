// A country's flag: bundled SVGs of the country-flag-icons package, served from the app's own
// origin (no third-party image host), with the country's name as alt text.
import { flagUrl } from './flags';

export interface CountryFlagProps {
  iso_code: string;
  /** The country's name, for the alt text (falls back to the code). */
  display_name?: string;
  /** Height in px; the width follows the flags' 3:2 ratio. */
  height?: number;
}

export function CountryFlag({ iso_code, display_name, height = 16 }: CountryFlagProps) {
  const url = flagUrl(iso_code);
  const name = display_name || iso_code.toUpperCase();
  if (!url) {
    return (
      <span className="country-flag country-flag-missing" title={name}>
        {iso_code.toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className="country-flag"
      src={url}
      alt={name}
      title={name}
      height={height}
      width={Math.round((height * 3) / 2)}
      loading="lazy"
    />
  );
}
