import { describe, expect, it } from 'vitest';
import { visualRuns } from '../bidi-text';

describe('visualRuns: the direction runs of a printed line, left to right', () => {
  it('keeps a left-to-right line whole', () => {
    expect(visualRuns('Zoë Señor-Łukasz 12')).toEqual([
      { text: 'Zoë Señor-Łukasz 12', rightToLeft: false },
    ]);
    expect(visualRuns('')).toEqual([]);
  });

  it('hands a right-to-left line over in logical order, for the layout to turn', () => {
    expect(visualRuns('שרה כהן')).toEqual([{ text: 'שרה כהן', rightToLeft: true }]);
    expect(visualRuns('محمد علی')).toEqual([{ text: 'محمد علی', rightToLeft: true }]);
  });

  it('puts the words of a mixed line in their visual order', () => {
    // A line that starts in Latin reads from the left, its Hebrew word in the middle.
    expect(visualRuns('Sara שרה, Paul')).toEqual([
      { text: 'Sara ', rightToLeft: false },
      { text: 'שרה', rightToLeft: true },
      { text: ', Paul', rightToLeft: false },
    ]);
    // A number after a Hebrew word belongs to it (Unicode's rule): it is read first, on the left.
    expect(visualRuns('Sara שרה 12')).toEqual([
      { text: 'Sara ', rightToLeft: false },
      { text: '12', rightToLeft: false },
      { text: 'שרה ', rightToLeft: true },
    ]);
    // A line that starts in Arabic reads from the right: its number ends up on the left.
    expect(visualRuns('علی 2024')).toEqual([
      { text: '2024', rightToLeft: false },
      { text: 'علی ', rightToLeft: true },
    ]);
    expect(visualRuns('שרה Sara')).toEqual([
      { text: 'Sara', rightToLeft: false },
      { text: 'שרה ', rightToLeft: true },
    ]);
  });

  it('mirrors brackets in right-to-left text and drops Arabic vowel marks', () => {
    expect(visualRuns('علی (ب)')).toEqual([{ text: 'علی )ب(', rightToLeft: true }]);
    expect(visualRuns('مُحَمَّد')).toEqual([{ text: 'محمد', rightToLeft: true }]);
  });
});
