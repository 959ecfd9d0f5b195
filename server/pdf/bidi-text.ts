// Right-to-left text (Hebrew, Arabic, Persian...) on paper. PDF draws glyphs left to right, so a
// line is cut into runs of one direction (the Unicode bidirectional algorithm, bidi-js), drawn
// left to right in their visual order. Each right-to-left run is handed over in its logical
// order: the font layout (fontkit, under pdf-lib) joins Arabic letters and lays the run out
// right to left itself, but only when the text it is given is of a right-to-left script; a
// mixed line given whole would be laid out left to right and print its Hebrew or Arabic
// backwards.
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

export interface DirectionRun {
  /** The run's characters in logical order (mirrored brackets already swapped when right to left). */
  text: string;
  rightToLeft: boolean;
}

/** Letters of the scripts the font layout lays out right to left itself. */
const RIGHT_TO_LEFT_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/**
 * Arabic vowel marks (harakat): pdf-lib draws glyphs without the font's mark positioning, so a
 * mark would land beside its letter rather than over it. Names are written without them.
 */
const ARABIC_MARKS = /[\u064b-\u065f\u0670]/gu;

/** Whether `text` holds anything written right to left. */
function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT_LETTER.test(text);
}

/**
 * The runs of `text` in the order they are drawn, left to right. The line's own direction is
 * that of its first letter (a name in Arabic reads from the right even with a number in it).
 */
export function visualRuns(text: string): DirectionRun[] {
  const clean = text.replace(ARABIC_MARKS, '');
  if (!hasRightToLeft(clean)) return clean === '' ? [] : [{ text: clean, rightToLeft: false }];
  const embedding = bidi.getEmbeddingLevels(clean, 'auto');
  const order = bidi.getReorderedIndices(clean, embedding);
  const runs: DirectionRun[] = [];
  // Visual positions come as consecutive logical indices: rising in a left-to-right run, falling
  // in a right-to-left one. A run ends where that stops.
  let at = 0;
  while (at < order.length) {
    const rightToLeft = (embedding.levels[order[at]!]! & 1) === 1;
    let end = at + 1;
    while (
      end < order.length &&
      ((embedding.levels[order[end]!]! & 1) === 1) === rightToLeft &&
      order[end]! === order[end - 1]! + (rightToLeft ? -1 : 1)
    ) {
      end++;
    }
    const indices = order.slice(at, end);
    if (rightToLeft) indices.reverse();
    let runText = indices
      .map((index) =>
        rightToLeft ? (bidi.getMirroredCharacter(clean[index]!) ?? clean[index]!) : clean[index]!,
      )
      .join('');
    // A right-to-left run of neutrals only (say "?!" between two Hebrew words) is not of a
    // right-to-left script, so the layout would not turn it: turned here.
    if (rightToLeft && !hasRightToLeft(runText)) runText = [...runText].reverse().join('');
    runs.push({ text: runText, rightToLeft });
    at = end;
  }
  return runs;
}
