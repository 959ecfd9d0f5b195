// The portal's colours pass WCAG AA (4.5:1 for normal text) where text sits on them: buttons,
// links, tabs, list highlights and banners. Reads the real variables of src/styles/brand.css.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/styles/brand.css', import.meta.url), 'utf8');
const rootBlock = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
const variables = new Map(
  [...rootBlock.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1] as string, (m[2] as string).trim()]),
);

function colour(name: string): string {
  const value = variables.get(name);
  if (!value) throw new Error(`brand.css defines no --${name}`);
  const reference = /^var\(--([\w-]+)\)$/.exec(value);
  return reference ? colour(reference[1] as string) : value;
}

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const channels = [0, 2, 4].map((i) => parseInt((match[1] as string).slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE = '#ffffff';
const AA = 4.5;

describe('theme contrast (WCAG AA)', () => {
  it('has a red primary and a blue secondary', () => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour('primary-color').slice(i, i + 2), 16)) as [number, number, number];
    expect(r).toBeGreaterThan(g + 100);
    expect(r).toBeGreaterThan(b + 100);
    const [r2, g2, b2] = [1, 3, 5].map((i) => parseInt(colour('secondary-color').slice(i, i + 2), 16)) as [number, number, number];
    expect(b2).toBeGreaterThan(r2 + 100);
    expect(b2).toBeGreaterThan(g2 + 100);
  });

  it.each([
    ['primary button text', 'primary-color-text', 'primary-color'],
    ['primary button text, hovered', 'primary-color-text', 'primary-hover'],
    ['primary button text, pressed', 'primary-color-text', 'primary-active'],
    ['secondary button text', 'secondary-color-text', 'secondary-color'],
    ['secondary button text, hovered', 'secondary-color-text', 'secondary-hover'],
    ['highlighted item text', 'highlight-text-color', 'highlight-bg'],
    ['success banner', 'banner-success-text', 'banner-success-bg'],
    ['info banner', 'banner-info-text', 'banner-info-bg'],
    ['warning banner', 'banner-warn-text', 'banner-warn-bg'],
    ['error banner', 'banner-error-text', 'banner-error-bg'],
  ])('%s', (_what, text, background) => {
    expect(contrast(colour(text), colour(background))).toBeGreaterThanOrEqual(AA);
  });

  it.each([
    ['links', 'link-color'],
    ['hovered links', 'link-hover-color'],
    ['outlined and text buttons, the active tab', 'primary-color'],
    ['secondary outlined buttons', 'secondary-color'],
    ['inactive tabs', 'tab-text-color'],
    ['body text', 'text-color'],
    ['secondary text', 'text-color-secondary'],
  ])('%s on white', (_what, text) => {
    expect(contrast(colour(text), WHITE)).toBeGreaterThanOrEqual(AA);
  });

  it('computes contrast like WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#3b82f6', '#ffffff')).toBeLessThan(AA); // Lara's stock blue button fails
  });
});
