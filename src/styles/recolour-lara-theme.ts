// The portal's theme is PrimeReact's Lara light theme with a red primary and a blue secondary
// (spec §2). Lara writes its blue as literal colours in every rule, so overriding its CSS variables
// alone changes nothing: this rewrites those literals into the variables src/styles/brand.css
// defines. vite.config.ts applies it to lara-light-blue/theme.css when the app is served or built.

/** The Lara theme file the plugin rewrites. */
export const LARA_THEME_FILE = /primereact\/resources\/themes\/lara-light-blue\/theme\.css(\?.*)?$/;

type Replacement = readonly [RegExp, string];

const hex = (colour: string) => new RegExp(`${colour}(?![0-9a-f])`, 'gi');
const rgb = (triplet: string) => new RegExp(`rgba\\(${triplet.replace(/, /g, ',\\s*')},\\s*`, 'gi');

/** Lara's blue primary, everywhere it is the primary: becomes the red primary. */
const PRIMARY: readonly Replacement[] = [
  [hex('#3b82f6'), 'var(--primary-color)'],
  [hex('#2563eb'), 'var(--primary-hover)'],
  [hex('#1d4ed8'), 'var(--primary-active)'],
  [hex('#bfdbfe'), 'var(--primary-ring)'],
  [hex('#eff6ff'), 'var(--primary-tint)'],
  [rgb('59, 130, 246'), 'rgba(var(--primary-rgb), '],
];

/** Lara's slate "secondary" and sky "info" variants: become the blue secondary. */
const SECONDARY: readonly Replacement[] = [
  [hex('#64748b'), 'var(--secondary-color)'],
  [hex('#475569'), 'var(--secondary-hover)'],
  [hex('#334155'), 'var(--secondary-active)'],
  [hex('#e2e8f0'), 'var(--secondary-ring)'],
  [rgb('100, 116, 139'), 'rgba(var(--secondary-rgb), '],
];
const INFO: readonly Replacement[] = [
  [hex('#3b82f6'), 'var(--secondary-color)'],
  [hex('#0ea5e9'), 'var(--secondary-color)'],
  [hex('#0284c7'), 'var(--secondary-hover)'],
  [hex('#0369a1'), 'var(--secondary-active)'],
  [hex('#bfdbfe'), 'var(--secondary-ring)'],
  [rgb('14, 165, 233'), 'rgba(var(--secondary-rgb), '],
];

function applyAll(body: string, replacements: readonly Replacement[]): string {
  return replacements.reduce((text, [pattern, value]) => text.replace(pattern, value), body);
}

/**
 * Rewrites Lara's colours rule by rule. The :root block is left alone: brand.css, loaded after the
 * theme, sets the variables (a variable defined as itself would be invalid).
 */
export function recolourLaraTheme(css: string): string {
  return css.replace(/([^{}]*)\{([^{}]*)\}/g, (whole, selector: string, body: string) => {
    if (/(^|[\s,]):root\b/.test(selector)) return whole;
    let recoloured = body;
    if (/secondary/.test(selector)) recoloured = applyAll(recoloured, SECONDARY);
    if (/-info\b/.test(selector)) recoloured = applyAll(recoloured, INFO);
    recoloured = applyAll(recoloured, PRIMARY);
    return `${selector}{${recoloured}}`;
  });
}
