import { describe, expect, it } from 'vitest';
import { answerSheetChanges, responseCongregationId } from '../response-details-form';

const response = {
  assigned_group: null,
  congregation: { id: 'c1', wbs_code: 'US 1' },
  lesson: { id: 'l1', name: 'Lesson 1' },
};

describe('answerSheetChanges', () => {
  it('sends only what differs from the saved response', () => {
    expect(answerSheetChanges(response, {})).toEqual({});
    expect(answerSheetChanges(response, { lesson: 'l1', congregation: 'c1' })).toEqual({});
    expect(answerSheetChanges(response, { lesson: 'l2' })).toEqual({ lesson: 'l2' });
    expect(answerSheetChanges(response, { congregation: 'c2' })).toEqual({ assigned_group: 'c2' });
    expect(answerSheetChanges(response, { lesson: null, congregation: null })).toEqual({ lesson: null, assigned_group: null });
  });
  it('reads the congregation as the assigned one first', () => {
    expect(responseCongregationId(response)).toBe('c1');
    expect(responseCongregationId({ ...response, assigned_group: 'c9' })).toBe('c9');
    expect(responseCongregationId({ assigned_group: null, congregation: null })).toBeNull();
  });
});
