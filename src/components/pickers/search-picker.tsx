// The pickers' one dropdown: searched on the server as the user types, the chosen record listed
// first when the page searched does not hold it (so its name shows), the value its id.
import { useId, useMemo } from 'react';
import { Dropdown } from 'primereact/dropdown';

export interface SearchPickerProps<T extends { id: string }> {
  label: string;
  value: string | undefined;
  onChange: (id: string | undefined) => void;
  onSearch: (text: string) => void;
  /** The page found for the current search. */
  items: readonly T[] | undefined;
  /** The chosen record, fetched on its own. */
  chosen: T | undefined;
  optionLabel: (item: T) => string;
  loading: boolean;
  placeholder: string;
  className: string;
  disabled?: boolean | undefined;
  showClear: boolean;
  emptyMessage?: string;
}

export function SearchPicker<T extends { id: string }>(props: SearchPickerProps<T>) {
  const { label, value, onChange, onSearch, items, chosen, optionLabel, loading, placeholder, className, disabled, showClear, emptyMessage } = props;
  const id = useId();
  const options = useMemo(() => {
    const listed = [...(items ?? [])];
    if (chosen && !listed.some((item) => item.id === chosen.id)) listed.unshift(chosen);
    return listed.map((item) => ({ value: item.id, label: optionLabel(item) }));
  }, [items, chosen, optionLabel]);

  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <Dropdown
        inputId={id}
        // PrimeReact's native <select> copy of the value is for forms only: keep it out of the
        // accessibility tree (the labelled combobox input is what assistive technology uses).
        pt={{ select: { 'aria-hidden': true } }}
        value={value ?? null}
        options={options}
        optionValue="value"
        optionLabel="label"
        filter
        onFilter={(event) => onSearch(event.filter)}
        showClear={showClear}
        placeholder={placeholder}
        loading={loading}
        disabled={disabled}
        {...(emptyMessage !== undefined && { emptyMessage })}
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
