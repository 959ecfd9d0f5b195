// Picks a country (GET /api/countries), showing flags; value is the ISO code.
import { useId } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useListCountries } from '../../../generated/hooks/reference/reference';
import type { Country } from '../../../generated/hooks/model';
import { CountryFlag } from '../list/country-flag';

/** Every country fits in one request (about 250; the contract allows up to 500). */
const ALL_COUNTRIES = { limit: 500 } as const;

export interface CountryPickerProps {
  label?: string;
  /** Shown while no country is chosen: "Any country" in a filter, a prompt in a form. */
  placeholder?: string;
  value: string | undefined;
  onChange: (isoCode: string | undefined) => void;
}

function CountryOption({ country, placeholder }: { country: Country | undefined; placeholder: string }) {
  if (!country) return <span>{placeholder}</span>;
  return (
    <span className="picker-option">
      <CountryFlag iso_code={country.iso_code} display_name={country.display_name} />
      <span>{country.display_name}</span>
    </span>
  );
}

export function CountryPicker({ label = 'Country', placeholder = 'Any country', value, onChange }: CountryPickerProps) {
  const id = useId();
  const countries = useListCountries(ALL_COUNTRIES);
  const options = countries.data?.items ?? [];
  return (
    <div className="filter-field">
      <label htmlFor={id}>{label}</label>
      <Dropdown
        inputId={id}
        // PrimeReact's native <select> copy of the value is for forms only: keep it out of the
        // accessibility tree (the labelled combobox input is what assistive technology uses).
        pt={{ select: { 'aria-hidden': true } }}
        value={value ?? null}
        options={options}
        optionValue="iso_code"
        optionLabel="display_name"
        filter
        filterBy="display_name,iso_code"
        showClear
        placeholder={placeholder}
        loading={countries.isLoading}
        itemTemplate={(country: Country) => <CountryOption country={country} placeholder={placeholder} />}
        valueTemplate={(country: Country | null) => <CountryOption country={country ?? undefined} placeholder={placeholder} />}
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
