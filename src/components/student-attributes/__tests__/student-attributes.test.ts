// The attributes form's rules (spec §3, §5): labels of coded values, and a save that sends only
// the changed fields.
import { describe, expect, it } from 'vitest';
import {
  AGE_INVALID,
  ATTRIBUTE_FIELDS,
  GENDER_LABELS,
  attributeErrors,
  attributesDraft,
  changedAttributes,
  hasChanges,
} from '../student-attributes';

const kofi = {
  name: 'Kofi Asante',
  email: 'kofi@example.org',
  age: 35,
  gender: 'his_Male',
  has_bible: 'yes',
  phone: null,
} as const;

describe('student attributes', () => {
  it('labels the genders without their codes', () => {
    expect(GENDER_LABELS).toEqual({
      his_Male: 'Male',
      her_Female: 'Female',
      'their_Prefer Not to Answer': 'Prefer Not to Answer',
    });
  });

  it('offers the coded values of spec §3 in order', () => {
    const values = (key: string) => ATTRIBUTE_FIELDS.find((f) => f.key === key)?.options?.map((o) => o.value);
    expect(values('gender')).toEqual(['his_Male', 'her_Female', 'their_Prefer Not to Answer']);
    expect(values('has_bible')).toEqual(['yes', 'no']);
  });

  it('lists every attribute of the contract once', () => {
    expect(ATTRIBUTE_FIELDS.map((f) => f.key)).toEqual([
      'name',
      'address',
      'email',
      'phone',
      'birthdate',
      'age',
      'gender',
      'relationship_status',
      'employment',
      'has_bible',
      'study_helper',
      'recruiter',
      'recruiting_point',
      'country',
    ]);
  });

  it('drafts every field as text', () => {
    const draft = attributesDraft(kofi);
    expect(draft.name).toBe('Kofi Asante');
    expect(draft.age).toBe('35');
    expect(draft.phone).toBe('');
    expect(draft.address).toBe('');
  });

  it('sends nothing when nothing changed, even after whitespace edits', () => {
    const draft = attributesDraft(kofi);
    expect(changedAttributes(kofi, draft)).toEqual({});
    expect(hasChanges(changedAttributes(kofi, { ...draft, name: ' Kofi Asante ', phone: '  ' }))).toBe(false);
  });

  it('sends only the changed fields, emptied ones as null and the age as a number', () => {
    const draft = { ...attributesDraft(kofi), phone: '+233 24', age: '36', email: '', gender: 'her_Female' };
    expect(changedAttributes(kofi, draft)).toEqual({ phone: '+233 24', age: 36, email: null, gender: 'her_Female' });
  });

  it('refuses an age that is not a whole number from 0 to 150', () => {
    const draft = attributesDraft(kofi);
    expect(attributeErrors(draft)).toEqual({});
    expect(attributeErrors({ ...draft, age: '' })).toEqual({});
    expect(attributeErrors({ ...draft, age: '0' })).toEqual({});
    for (const age of ['-1', '12.5', 'ten', '151']) expect(attributeErrors({ ...draft, age })).toEqual({ age: AGE_INVALID });
  });
});
