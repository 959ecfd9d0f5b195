// A student's attributes as a form edits them (spec §3 "Student attributes", §5): the fields in
// order with their labels and choices, and the rule that a save sends only the changed fields.
import type { StudentAttributes } from '../../../generated/hooks/model';

export type AttributeName = keyof StudentAttributes;

export interface AttributeField {
  name: AttributeName;
  label: string;
  kind: 'text' | 'number' | 'choice';
  /** For a choice: the stored value and its label. */
  options?: readonly { value: string; label: string }[];
}

export const STUDENT_ATTRIBUTE_FIELDS: readonly AttributeField[] = [
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'address', label: 'Address', kind: 'text' },
  { name: 'email', label: 'Email', kind: 'text' },
  { name: 'phone', label: 'Phone', kind: 'text' },
  { name: 'birthdate', label: 'Birthdate', kind: 'text' },
  { name: 'age', label: 'Age', kind: 'number' },
  {
    name: 'gender',
    label: 'Gender',
    kind: 'choice',
    options: [
      { value: 'his_Male', label: 'Male' },
      { value: 'her_Female', label: 'Female' },
      { value: 'their_Prefer Not to Answer', label: 'Prefer Not to Answer' },
    ],
  },
  {
    name: 'relationship_status',
    label: 'Relationship Status',
    kind: 'choice',
    options: [
      { value: 'married', label: 'Married' },
      { value: 'single', label: 'Single' },
      { value: 'divorced', label: 'Divorced' },
      { value: 'widowed', label: 'Widowed' },
      { value: 'separated', label: 'Separated' },
      { value: 'prefer_not_to_say', label: 'Prefer not to say' },
    ],
  },
  { name: 'employment', label: 'Employment', kind: 'text' },
  {
    name: 'has_bible',
    label: 'Has Bible',
    kind: 'choice',
    options: [
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ],
  },
  { name: 'study_helper', label: 'Study Helper', kind: 'text' },
  { name: 'recruiter', label: 'Recruiter', kind: 'text' },
  { name: 'recruiting_point', label: 'Recruiting Point', kind: 'text' },
  { name: 'country', label: 'Country', kind: 'text' },
];

/** The form's value of an attribute: text for every kind ('' when unset). */
export function attributeText(attributes: StudentAttributes, name: AttributeName): string {
  const value = attributes[name];
  return value === null || value === undefined ? '' : String(value);
}

export type AttributeDraft = Partial<Record<AttributeName, string>>;

/** The stored value of a form's text: null when cleared, a number for age. */
function storedValue(field: AttributeField, text: string): string | number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (field.kind === 'number') {
    const number = Number(trimmed);
    return Number.isFinite(number) ? number : null;
  }
  return trimmed;
}

/** Only the fields whose value differs from the saved one (spec §5), as the PATCH sends them. */
export function changedAttributes(saved: StudentAttributes, draft: AttributeDraft): StudentAttributes {
  const changes: Record<string, string | number | null> = {};
  for (const field of STUDENT_ATTRIBUTE_FIELDS) {
    const text = draft[field.name];
    if (text === undefined) continue;
    const next = storedValue(field, text);
    const before = saved[field.name] ?? null;
    if (next !== before) changes[field.name] = next;
  }
  return changes as StudentAttributes;
}

/** Whether an age text is acceptable (empty, or a whole number 0 to 150). */
export function isValidAge(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return true;
  return /^\d+$/.test(trimmed) && Number(trimmed) <= 150;
}
