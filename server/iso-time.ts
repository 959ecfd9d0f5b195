// Timestamps go out as ISO 8601 in UTC with milliseconds ("2026-11-25T22:24:32.123Z"), the
// format of Date.prototype.toISOString, which every list row pays for two to five times. V8's
// toISOString costs 550-610 ns here (it goes through the runtime's date cache); the same text
// computed from the time value in JavaScript costs 200-230 ns. A students page of 10 rows spent
// ~11 µs formatting its dates, of ~120 µs of the app's own work per page.

const MS_PER_DAY = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: four-digit years, as toISOString. */
const FIRST_FOUR_DIGIT_YEAR_MS = -62_167_219_200_000;
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

// Zero-padded numbers from tables: turning each number into text was most of the work left.
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const four = (n: number) => TWO_DIGITS[Math.floor(n / 100)]! + TWO_DIGITS[n % 100]!;

/** The same text as `new Date(value).toISOString()`, and the same RangeError for an invalid time. */
export function iso(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  const time = date.getTime();
  // Invalid times throw, and years of other than four digits are written ±YYYYYY: toISOString.
  if (!(time >= FIRST_FOUR_DIGIT_YEAR_MS && time <= LAST_FOUR_DIGIT_YEAR_MS))
    return date.toISOString();
  const days = Math.floor(time / MS_PER_DAY);
  let ms = time - days * MS_PER_DAY;
  // The civil date of a count of days since 1970-01-01, in 400-year eras that begin on a
  // March 1st (Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms").
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  const two = TWO_DIGITS;
  return `${four(year)}-${two[month]}-${two[day]}T${two[hours]}:${two[minutes]}:${two[seconds]}.${THREE_DIGITS[ms]}Z`;
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}
