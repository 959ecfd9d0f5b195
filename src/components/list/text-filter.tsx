// A text filter of a list (a search box): typing updates the list's filter after a short pause,
// and a filter changed elsewhere (back button, Clear filters) shows here.
import { useEffect, useId, useRef, useState } from 'react';
import { InputText } from 'primereact/inputtext';

export const TEXT_FILTER_DEBOUNCE_MS = 300;

export interface TextFilterProps {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  placeholder?: string;
  inputMode?: 'text' | 'numeric';
}

export function TextFilter({ label, value, onChange, placeholder, inputMode = 'text' }: TextFilterProps) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    // The filter changed outside this box: show it.
    setShown(value);
    setDraft(value ?? '');
  }
  // The latest onChange, so a parent re-render does not restart the pause.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  useEffect(() => {
    if (draft === (value ?? '')) return undefined;
    const timer = setTimeout(() => onChangeRef.current(draft), TEXT_FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);

  return (
    <div className="filter-field">
      <label htmlFor={id}>{label}</label>
      <InputText
        id={id}
        value={draft}
        placeholder={placeholder}
        inputMode={inputMode}
        onChange={(event) => setDraft(event.target.value)}
      />
    </div>
  );
}
