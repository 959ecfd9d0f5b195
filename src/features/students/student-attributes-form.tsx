// The editable Attributes form of a student (spec §2, §5): every attribute, coded values shown by
// their labels; Save sends only the changed fields, is disabled while nothing changed, and a
// "Saved" indicator shows for 2 s after a save. Fields in `readOnly` are shown but not editable
// (the response's student-info screen keeps country, recruiter and recruiting point read-only).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import type { StudentAttributes } from '../../../generated/hooks/model';
import { SAVED_INDICATOR_MS } from '../../../machines/constants';
import {
  ATTRIBUTE_FIELDS,
  attributeErrors,
  attributesDraft,
  changedAttributes,
  hasChanges,
  type AttributeField,
  type AttributeKey,
  type AttributesDraft,
} from './student-attributes';

export const SAVED_TEXT = 'Saved';

export interface StudentAttributesFormProps {
  attributes: StudentAttributes;
  /** Saves the changed attributes; resolves when the server accepted them. */
  onSave: (changes: StudentAttributes) => Promise<unknown>;
  readOnly?: readonly AttributeKey[];
  /** A line under a field, e.g. where a read-only value is chosen instead. */
  hints?: Partial<Record<AttributeKey, string>>;
}

function AttributeInput({
  field,
  value,
  error,
  readOnly,
  hint,
  onChange,
}: {
  field: AttributeField;
  value: string;
  error: string | undefined;
  readOnly: boolean;
  hint: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  const hintId = useId();
  let input;
  if (field.kind === 'choice') {
    input = (
      <Dropdown
        inputId={id}
        // PrimeReact's native <select> copy of the value is for forms only: keep it out of the
        // accessibility tree (the labelled combobox input is what assistive technology uses).
        pt={{ select: { 'aria-hidden': true } }}
        value={value === '' ? null : value}
        options={[...(field.options ?? [])]}
        optionValue="value"
        optionLabel="label"
        placeholder="Not given"
        showClear={!readOnly}
        disabled={readOnly}
        onChange={(event) => onChange((event.value as string | null) ?? '')}
      />
    );
  } else {
    input = (
      <InputText
        id={id}
        value={value}
        type={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'text'}
        inputMode={field.kind === 'age' ? 'numeric' : undefined}
        maxLength={field.maxLength}
        readOnly={readOnly}
        invalid={error !== undefined}
        aria-invalid={error !== undefined || undefined}
        aria-describedby={error !== undefined ? errorId : hint !== undefined ? hintId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <div className="form-field">
      <label htmlFor={id}>{field.label}</label>
      {input}
      {error !== undefined && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
      {hint !== undefined && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function StudentAttributesForm({ attributes, onSave, readOnly = [], hints = {} }: StudentAttributesFormProps) {
  // The form starts over whenever the student's saved attributes change (after a save, a reload).
  const [base, setBase] = useState(attributes);
  const [draft, setDraft] = useState<AttributesDraft>(() => attributesDraft(attributes));
  if (base !== attributes) {
    setBase(attributes);
    setDraft(attributesDraft(attributes));
  }
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  useEffect(() => {
    if (savedAt === null) return undefined;
    const timer = setTimeout(() => setSavedAt(null), SAVED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [savedAt]);

  const changes = changedAttributes(attributes, draft);
  const errors = attributeErrors(draft);
  const canSave = hasChanges(changes) && Object.keys(errors).length === 0 && !saving;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    setSaving(true);
    try {
      await onSave(changes);
      setSavedAt(Date.now());
    } catch (error) {
      // Spec §8: a failed save is only logged; the changes stay in the form to try again.
      console.error('Saving the student attributes failed', error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="attributes-form" onSubmit={(event) => void submit(event)} noValidate aria-label="Attributes">
      <div className="attributes-grid">
        {ATTRIBUTE_FIELDS.map((field) => (
          <AttributeInput
            key={field.key}
            field={field}
            value={draft[field.key]}
            error={errors[field.key]}
            readOnly={readOnly.includes(field.key)}
            hint={hints[field.key]}
            onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
          />
        ))}
      </div>
      <div className="form-actions">
        {savedAt !== null && (
          <span className="saved-indicator" role="status">
            <span className="pi pi-check" aria-hidden="true" /> {SAVED_TEXT}
          </span>
        )}
        <Button type="submit" label="Save" icon="pi pi-save" loading={saving} disabled={!canSave} />
      </div>
    </form>
  );
}
