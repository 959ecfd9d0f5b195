import { describe, expect, it } from 'vitest';
import { isMismatched, templateLabel } from '../page-item';

const lesson = (id: string) => ({ id, name: `Lesson ${id}` });
const template = (lessonId: string) => ({ id: `t-${lessonId}`, name: '', page_number: 2, lesson: lesson(lessonId) });

describe('isMismatched', () => {
  it('flags a page whose template belongs to another lesson than the response\'s', () => {
    expect(isMismatched({ template: template('l1') }, 'l2')).toBe(true);
    expect(isMismatched({ template: template('l1') }, 'l1')).toBe(false);
  });
  it('does not flag a page without a template or a response without a lesson', () => {
    expect(isMismatched({ template: null }, 'l1')).toBe(false);
    expect(isMismatched({ template: template('l1') }, null)).toBe(false);
  });
  it('labels a template by its name, else its lesson and page', () => {
    expect(templateLabel(template('l1'))).toBe('Lesson l1, page 2');
    expect(templateLabel({ ...template('l1'), name: 'L1 p2' })).toBe('L1 p2');
  });
});
