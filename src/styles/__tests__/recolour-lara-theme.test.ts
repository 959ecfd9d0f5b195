import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LARA_THEME_FILE, recolourLaraTheme } from '../recolour-lara-theme';

const require = createRequire(import.meta.url);
const themePath = require.resolve('primereact/resources/themes/lara-light-blue/theme.css');
const theme = readFileSync(themePath, 'utf8');

/** The theme's rules without its :root variable blocks (which brand.css overrides). */
function withoutRoot(css: string): string {
  return css.replace(/:root\s*\{[^{}]*\}/g, '');
}

describe('recolourLaraTheme', () => {
  const recoloured = recolourLaraTheme(theme);

  it('matches the Lara theme file the plugin rewrites', () => {
    expect(LARA_THEME_FILE.test(themePath)).toBe(true);
    expect(LARA_THEME_FILE.test('/x/node_modules/primereact/resources/primereact.min.css')).toBe(false);
  });

  it('leaves none of Lara\'s primary blues in its rules', () => {
    const rules = withoutRoot(recoloured);
    for (const blue of ['#3b82f6', '#2563eb', '#1d4ed8', '#bfdbfe', '#eff6ff']) {
      expect(rules.toLowerCase()).not.toContain(blue);
    }
    expect(rules).not.toMatch(/rgba\(59,\s*130,\s*246/);
  });

  it('turns the primary button red and the secondary and info buttons blue', () => {
    expect(recoloured).toMatch(/\.p-button \{[^}]*background: var\(--primary-color\)/);
    expect(recoloured).toMatch(/\.p-button\.p-button-secondary[^{]*\{[^}]*background: var\(--secondary-color\)/);
    expect(recoloured).toMatch(/\.p-button\.p-button-info[^{]*\{[^}]*background: var\(--secondary-color\)/);
  });

  it('highlights the active tab in the primary colour', () => {
    expect(recoloured).toMatch(
      /\.p-tabmenuitem\.p-highlight \.p-menuitem-link \{[^}]*border-color: var\(--primary-color\);[^}]*color: var\(--primary-color\)/,
    );
  });

  it('keeps everything else as it was', () => {
    expect(recoloured.length).toBeGreaterThan(theme.length);
    expect(withoutRoot(recoloured).match(/#4b5563/g)?.length).toBe(withoutRoot(theme).match(/#4b5563/g)?.length);
    expect(recoloured).toContain(':root {\n  font-family: "Inter var", sans-serif;');
  });
});
