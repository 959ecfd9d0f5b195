// Small pure pieces of the files screens: action items, the packet.
import { describe, expect, it } from 'vitest';
import { actionItems, actionPhaseOf } from '../action-items';
import { packetsFor } from '../print-packet-button';
import { reviewEndText } from '../../../components/review-complete/review-complete';

const noReasons = { no_code_found: 0, unreadable: 0, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 };
const stats = { pages: 10, sheets: 4, unrecognized: 0, mismatched: 0, ignored: 0, unassigned: 0, duplicates: 0, missing_student: 0, missing_lesson: 0, flagged: 0, reasons: noReasons };

describe('actionItems', () => {
  it('lists each warning above zero, in plain words', () => {
    expect(actionItems(stats)).toEqual([]);
    expect(
      actionItems({
        ...stats,
        unrecognized: 3,
        mismatched: 1,
        unassigned: 2,
        missing_lesson: 1,
        flagged: 4,
        reasons: { ...noReasons, no_code_found: 2, unreadable: 1, out_of_order: 1 },
      }).map((item) => item.text),
    ).toEqual([
      '2 pages: No code found',
      '1 page: Code unreadable',
      '1 page: Out of order',
      '1 mismatched page',
      '1 response without a lesson',
      '2 responses without a congregation',
    ]);
  });

  it('tells blank backs apart from pages someone ignored, as information, not a warning', () => {
    const items = actionItems({ ...stats, ignored: 5, reasons: { ...noReasons, blank_back: 4 } });
    expect(items.map((item) => [item.text, item.severity])).toEqual([
      ['4 blank backs', 'info'],
      ['1 ignored page', 'info'],
    ]);
    expect(items[0]!.reason).toBe('blank_back');
  });

  it('lists duplicates while Review decides about them, and only what still needs a person after it', () => {
    const reviewed = { ...stats, ignored: 5, duplicates: 2, unassigned: 1, reasons: { ...noReasons, blank_back: 4, duplicate_sheet: 3 } };
    expect(actionItems(reviewed).map((item) => [item.text, item.severity])).toEqual([
      ['2 duplicate responses', 'warning'],
      ['4 blank backs', 'info'],
      ['1 response without a congregation', 'warning'],
      ['1 ignored page', 'info'],
    ]);
    expect(actionItems(reviewed, 'after_review').map((item) => item.text)).toEqual(['1 response without a congregation']);
  });

  it('lists nothing once the file was sent: its responses are fixed, nobody can act on a warning', () => {
    const sent = { ...stats, ignored: 5, duplicates: 2, missing_student: 1, reasons: { ...noReasons, blank_back: 4, no_sheet: 1 } };
    const repeated = { ...sent, repeat_of: { file_id: 'f0', name: 'March batch', pages: 8 } };
    expect(actionItems(repeated, 'sent')).toEqual([]);
    // Before Send a response without a student can still be named, and a repeated batch still held back.
    expect(actionItems(repeated, 'after_review').map((item) => item.text)).toEqual([
      'Already uploaded: 8 pages of this file are in “March batch”',
      '1 page: No sheet found in the photo',
      '1 response without a student',
    ]);
  });
});

describe('actionPhaseOf', () => {
  it('is Review until the step is known, after it at Assign and Send, sent from Grading on and when archived', () => {
    expect(actionPhaseOf(false, false, 'grading')).toBe('review');
    expect(actionPhaseOf(true, false, 'robot')).toBe('review');
    expect(actionPhaseOf(true, false, 'review')).toBe('review');
    expect(actionPhaseOf(true, false, 'assign')).toBe('after_review');
    expect(actionPhaseOf(true, false, 'send')).toBe('after_review');
    expect(actionPhaseOf(true, false, 'grading')).toBe('sent');
    expect(actionPhaseOf(true, false, 'return')).toBe('sent');
    expect(actionPhaseOf(true, true, 'return')).toBe('sent');
  });
});

describe('reviewEndText', () => {
  it('speaks only when Review ended in front of the person, and says what comes next', () => {
    expect(reviewEndText('review', 'assign')).toBe('Review is complete: nothing in this file waits for a person any more. Next: assign its responses to congregations.');
    expect(reviewEndText('review', 'send')).toBe('Review is complete: nothing in this file waits for a person any more. Next: send it to the study helpers.');
    expect(reviewEndText('review', 'review')).toBeNull();
    expect(reviewEndText(undefined, 'send')).toBeNull();
    expect(reviewEndText('assign', 'send')).toBeNull();
  });
});

describe('packetsFor', () => {
  const congregations = [
    { id: 'c1', wbs_code: 'US 1', display_name: 'One', status: 'unprinted' as const, sheets: 3, packet_id: 'd1' },
    { id: 'c2', wbs_code: 'US 2', display_name: 'Two', status: 'unprinted' as const, sheets: 2, packet_id: 'd2' },
  ];
  it('takes the user\'s congregation\'s packet, else every congregation\'s (an admin)', () => {
    expect(packetsFor(congregations, 'c2')).toEqual(['d2']);
    expect(packetsFor(congregations, '')).toEqual(['d1', 'd2']);
    expect(packetsFor([{ ...congregations[0]!, packet_id: null }], 'c1')).toEqual([]);
    expect(packetsFor([{ ...congregations[0]!, packet_id: null }, congregations[1]!], '')).toEqual(['d2']);
  });
});
