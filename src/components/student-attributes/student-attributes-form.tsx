// The student's editable Attributes form (spec §2, §5), on the student's page and on a response's
// student info: every attribute, coded values shown by their labels; Save sends only the changed
// fields (PATCH /api/students/{id}), is disabled while nothing changed, and "Saved" shows for 2 s
// after a save; a failed save is only logged (spec §8). Study Helper shows the student's linked
// study helper, read-only: it is chosen on the Student card, so the two never disagree. Fields in
// `readOnly` are shown as text.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { getGetStudentQueryKey, useUpdateStudent } from '../../../generated/hooks/students/students';
import type { Student } from '../../../generated/hooks/model';
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
import { invalidateStudents } from '../../lib/queries';
import './student-attributes.css';

export const SAVED_TEXT = 'Saved';
export const STUDY_HELPER_HINT = 'Chosen on the Student card.';

export interface StudentAttributesFormProps {
  student: Student;
  /** Fields shown as text, not editable here (Study Helper always is). */
  readOnly?: readonly AttributeKey[];
}

function ReadOnlyValue({ field, value, hint }: { field: AttributeField; value: string; hint: string | undefined }) {
  const labelId = useId();
  const hintId = useId();
  const text = field.options?.find((option) => option.value === value)?.label ?? value;
  return (
    <div className="form-field attribute-read-only">
      <span id={labelId} className="attribute-label">
        {field.label}
      </span>
      <span aria-labelledby={labelId} aria-describedby={hint !== undefined ? hintId : undefined}>
        {text || '—'}
      </span>
      {hint !== undefined && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
    </div>
  );
}

function AttributeInput({
  field,
  value,
  error,
  onChange,
}: {
  field: AttributeField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  const input =
    field.kind === 'choice' ? (
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
        showClear
        onChange={(event) => onChange((event.value as string | null) ?? '')}
      />
    ) : (
      <InputText
        id={id}
        value={value}
        type={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'text'}
        inputMode={field.kind === 'age' ? 'numeric' : undefined}
        maxLength={field.maxLength}
        invalid={error !== undefined}
        aria-invalid={error !== undefined || undefined}
        aria-describedby={error !== undefined ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  return (
    <div className="form-field">
      <label htmlFor={id}>{field.label}</label>
      {input}
      {error !== undefined && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function StudentAttributesForm({ student, readOnly = [] }: StudentAttributesFormProps) {
  const queryClient = useQueryClient();
  const update = useUpdateStudent();
  const attributes = student.attributes;
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
      const saved = await update.mutateAsync({ id: student.id, data: { attributes: changes } });
      queryClient.setQueryData(getGetStudentQueryKey(student.id), saved);
      // Lists show a student's name: they refetch.
      void invalidateStudents(queryClient);
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
        {ATTRIBUTE_FIELDS.map((field) =>
          field.key === 'study_helper' ? (
            <ReadOnlyValue key={field.key} field={field} value={student.study_helper?.name ?? ''} hint={STUDY_HELPER_HINT} />
          ) : readOnly.includes(field.key) ? (
            <ReadOnlyValue key={field.key} field={field} value={draft[field.key]} hint={undefined} />
          ) : (
            <AttributeInput
              key={field.key}
              field={field}
              value={draft[field.key]}
              error={errors[field.key]}
              onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
            />
          ),
        )}
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
