// An editable form of a student's attributes (spec §3, §5): Save sends only the changed fields
// with PATCH /api/students/{id} and is disabled without changes; some fields can be read-only.
// "Study Helper Name" always shows the student's study helper (chosen on the student's card).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { getGetStudentQueryKey, useUpdateStudent } from '../../../generated/hooks/students/students';
import type { Student } from '../../../generated/hooks/model';
import {
  STUDENT_ATTRIBUTE_FIELDS,
  attributeText,
  changedAttributes,
  isValidAge,
  type AttributeDraft,
  type AttributeField,
  type AttributeName,
} from './student-attributes';
import './student-attributes.css';

export interface StudentAttributesFormProps {
  student: Student;
  /** Fields shown but not editable here. */
  readOnly?: readonly AttributeName[];
}

function Field({
  field,
  value,
  readOnly,
  onChange,
}: {
  field: AttributeField;
  value: string;
  readOnly: boolean;
  onChange: (text: string) => void;
}) {
  const id = useId();
  if (readOnly) {
    return (
      <div className="attribute-field attribute-read-only">
        <span className="attribute-label" id={id}>
          {field.label}
        </span>
        <span aria-labelledby={id}>{value || '—'}</span>
      </div>
    );
  }
  return (
    <div className="attribute-field">
      <label htmlFor={id} className="attribute-label">
        {field.label}
      </label>
      {field.kind === 'choice' ? (
        <Dropdown
          inputId={id}
          value={value || null}
          options={[...(field.options ?? [])]}
          optionValue="value"
          optionLabel="label"
          showClear
          placeholder="Not given"
          onChange={(event) => onChange((event.value as string | null) ?? '')}
        />
      ) : (
        <InputText
          id={id}
          value={value}
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
          invalid={field.kind === 'number' && !isValidAge(value)}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </div>
  );
}

export function StudentAttributesForm({ student, readOnly = [] }: StudentAttributesFormProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<AttributeDraft>({});
  const update = useUpdateStudent();
  const saved = student.attributes ?? {};
  // One source for the study helper: the one chosen on the student's card, never typed here.
  const helperName = student.study_helper?.name ?? '';
  const changes = changedAttributes(saved, draft);
  const changed = Object.keys(changes).length > 0;
  const valid = isValidAge(draft.age ?? attributeText(saved, 'age'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || !valid) return;
    update.mutate(
      { id: student.id, data: { attributes: changes } },
      {
        onSuccess: (updated) => {
          queryClient.setQueryData(getGetStudentQueryKey(student.id), updated);
          void queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('/api/students') });
          setDraft({});
        },
        onError: (error) => console.error('student attributes save failed:', error),
      },
    );
  };

  return (
    <form className="attributes-form" onSubmit={submit} aria-label="Attributes">
      <div className="attributes-grid">
        {STUDENT_ATTRIBUTE_FIELDS.map((field) => (
          <Field
            key={field.name}
            field={field}
            value={field.name === 'study_helper' ? helperName : (draft[field.name] ?? attributeText(saved, field.name))}
            readOnly={field.name === 'study_helper' || readOnly.includes(field.name)}
            onChange={(text) => setDraft((current) => ({ ...current, [field.name]: text }))}
          />
        ))}
      </div>
      {update.isError && <Message severity="error" text="The attributes could not be saved. Please try again." />}
      <div className="form-actions">
        <Button type="submit" label="Save" loading={update.isPending} disabled={!changed || !valid || update.isPending} />
      </div>
    </form>
  );
}
