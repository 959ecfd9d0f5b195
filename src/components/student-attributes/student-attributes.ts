// A student's attributes as an editable form (spec §3, §5): the fields in order with their labels
// (the attribute names of spec §3, as §2 names them: "Country, recruiter and recruiting point"),
// the labels of the coded values (his_Male → Male...), the draft the form edits (every field as
// text), and the patch a save sends, which holds only the changed fields.
import type { Gender, HasBible, RelationshipStatus, StudentAttributes } from '../../../generated/hooks/model';
import { propertyLimits } from '../../../generated/limits';

export type AttributeKey = keyof StudentAttributes;

export const GENDER_LABELS: Readonly<Record<Gender, string>> = {
  his_Male: 'Male',
  her_Female: 'Female',
  'their_Prefer Not to Answer': 'Prefer Not to Answer',
};

export const RELATIONSHIP_STATUS_LABELS: Readonly<Record<RelationshipStatus, string>> = {
  married: 'Married',
  single: 'Single',
  divorced: 'Divorced',
  widowed: 'Widowed',
  separated: 'Separated',
  prefer_not_to_say: 'Prefer not to say',
};

export const HAS_BIBLE_LABELS: Readonly<Record<HasBible, string>> = { yes: 'Yes', no: 'No' };

export interface AttributeOption {
  value: string;
  label: string;
}

export interface AttributeField {
  key: AttributeKey;
  label: string;
  kind: 'text' | 'email' | 'tel' | 'age' | 'choice';
  /** The contract's maximum length, for text fields. */
  maxLength?: number;
  options?: readonly AttributeOption[];
}

const optionsOf = (labels: Readonly<Record<string, string>>): AttributeOption[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

const lengths = propertyLimits.StudentAttributes;

export const MAX_AGE = lengths.age.maximum;

/** Every attribute, in the order the form shows them (limits from the contract). */
export const ATTRIBUTE_FIELDS: readonly AttributeField[] = [
  { key: 'name', label: 'Name', kind: 'text', maxLength: lengths.name.maxLength },
  { key: 'address', label: 'Address', kind: 'text', maxLength: lengths.address.maxLength },
  { key: 'email', label: 'Email', kind: 'email', maxLength: lengths.email.maxLength },
  { key: 'phone', label: 'Phone', kind: 'tel', maxLength: lengths.phone.maxLength },
  { key: 'birthdate', label: 'Birthdate', kind: 'text', maxLength: lengths.birthdate.maxLength },
  { key: 'age', label: 'Age', kind: 'age' },
  { key: 'gender', label: 'Gender', kind: 'choice', options: optionsOf(GENDER_LABELS) },
  { key: 'relationship_status', label: 'Relationship Status', kind: 'choice', options: optionsOf(RELATIONSHIP_STATUS_LABELS) },
  { key: 'employment', label: 'Employment', kind: 'text', maxLength: lengths.employment.maxLength },
  { key: 'has_bible', label: 'Has Bible', kind: 'choice', options: optionsOf(HAS_BIBLE_LABELS) },
  // The form shows the student's linked study helper here, chosen on the Student card.
  { key: 'study_helper', label: 'Study Helper', kind: 'text', maxLength: lengths.study_helper.maxLength },
  { key: 'recruiter', label: 'Recruiter', kind: 'text', maxLength: lengths.recruiter.maxLength },
  { key: 'recruiting_point', label: 'Recruiting Point', kind: 'text', maxLength: lengths.recruiting_point.maxLength },
  { key: 'country', label: 'Country', kind: 'text', maxLength: lengths.country.maxLength },
];

/** The form's values: every attribute as the text in its field ('' when empty). */
export type AttributesDraft = Record<AttributeKey, string>;

export function attributesDraft(attributes: StudentAttributes): AttributesDraft {
  const draft = {} as AttributesDraft;
  for (const field of ATTRIBUTE_FIELDS) {
    const value = attributes[field.key];
    draft[field.key] = value === null || value === undefined ? '' : String(value);
  }
  return draft;
}

export const AGE_INVALID = `Enter a whole number from 0 to ${MAX_AGE}.`;

/** Messages for fields whose text cannot be saved (only the age has a rule of its own). */
export function attributeErrors(draft: AttributesDraft): Partial<Record<AttributeKey, string>> {
  const age = draft.age.trim();
  if (age !== '' && (!/^\d+$/.test(age) || Number(age) > MAX_AGE)) return { age: AGE_INVALID };
  return {};
}

type AttributeValue = string | number | null;

function valueOf(key: AttributeKey, text: string): AttributeValue {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return key === 'age' ? Number(trimmed) : trimmed;
}

function storedValue(value: StudentAttributes[AttributeKey]): AttributeValue {
  return value === undefined || value === null || value === '' ? null : value;
}

/**
 * The attributes a save sends: only those whose value differs from the student's (spec §5),
 * an emptied field as null. Empty when nothing changed.
 */
export function changedAttributes(original: StudentAttributes, draft: AttributesDraft): StudentAttributes {
  const changes: Record<string, AttributeValue> = {};
  for (const field of ATTRIBUTE_FIELDS) {
    const next = valueOf(field.key, draft[field.key]);
    if (next !== storedValue(original[field.key])) changes[field.key] = next;
  }
  return changes as StudentAttributes;
}

export function hasChanges(changes: StudentAttributes): boolean {
  return Object.keys(changes).length > 0;
}
