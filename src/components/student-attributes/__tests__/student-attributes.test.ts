// Spec §5: saving student attributes sends only the changed fields.
import { describe, expect, it } from 'vitest';
import { changedAttributes, isValidAge, STUDENT_ATTRIBUTE_FIELDS } from '../student-attributes';

describe('changedAttributes', () => {
  const saved = { name: 'Ada', age: 31, gender: 'her_Female' as const, email: null };
  it('sends nothing when nothing changed', () => {
    expect(changedAttributes(saved, {})).toEqual({});
    expect(changedAttributes(saved, { name: 'Ada', age: '31', gender: 'her_Female', email: '' })).toEqual({});
  });
  it('sends only the fields that differ, typed as stored', () => {
    expect(changedAttributes(saved, { name: 'Ada M.', age: '32', email: 'ada@example.org' })).toEqual({
      name: 'Ada M.',
      age: 32,
      email: 'ada@example.org',
    });
  });
  it('sends null for a cleared field', () => {
    expect(changedAttributes(saved, { name: '  ' })).toEqual({ name: null });
  });
  it('knows the fields of spec §3 in order', () => {
    expect(STUDENT_ATTRIBUTE_FIELDS.map((field) => field.name)).toEqual([
      'name', 'address', 'email', 'phone', 'birthdate', 'age', 'gender', 'relationship_status', 'employment',
      'has_bible', 'study_helper', 'recruiter', 'recruiting_point', 'country',
    ]);
    expect(STUDENT_ATTRIBUTE_FIELDS.find((field) => field.name === 'gender')?.options?.map((o) => o.value)).toEqual([
      'his_Male', 'her_Female', 'their_Prefer Not to Answer',
    ]);
  });
  it('accepts an empty age or a whole number up to 150', () => {
    expect(isValidAge('')).toBe(true);
    expect(isValidAge('42')).toBe(true);
    expect(isValidAge('151')).toBe(false);
    expect(isValidAge('4.5')).toBe(false);
  });
});
