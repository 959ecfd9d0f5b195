// The URLs of the bundled 3x2 flag SVGs, by ISO 3166 alpha-2 code. Vite emits each file as an asset
// (vite.config.ts keeps them out of the JS as data URIs); only the URL map ships in the bundle.
const urls = import.meta.glob<string>('../../../node_modules/country-flag-icons/3x2/*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
});

const byCode = new Map<string, string>();
for (const [path, url] of Object.entries(urls)) {
  const code = /([A-Z]{2}(?:-[A-Z0-9]+)?)\.svg$/.exec(path)?.[1];
  if (code) byCode.set(code, url);
}

/** The flag's URL for a country code (any case), or undefined when the package has none. */
export function flagUrl(isoCode: string): string | undefined {
  return byCode.get(isoCode.trim().toUpperCase());
}

/** How many flags are bundled (for tests). */
export function flagCount(): number {
  return byCode.size;
}
