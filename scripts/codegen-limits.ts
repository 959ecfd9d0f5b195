// The contract's limits (lengths, bounds, counts) as plain constants: generated/limits.ts. The
// server, the machines and the mock world check these, so a limit is written once, in openapi/.
// Also the words an enum's values are shown in (`x-enum-words`), so a wording is written once.

const KEYWORDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;

type Schema = { properties?: Record<string, Schema>; allOf?: Schema[]; 'x-enum-words'?: Record<string, string> } & Partial<
  Record<(typeof KEYWORDS)[number], number>
>;
type Limits = Partial<Record<(typeof KEYWORDS)[number], number>>;

function ownLimits(schema: Schema): Limits | null {
  const limits: Limits = {};
  for (const keyword of KEYWORDS) if (typeof schema[keyword] === 'number') limits[keyword] = schema[keyword];
  return Object.keys(limits).length > 0 ? limits : null;
}

/** Its properties' limits, those of inline allOf members included. */
function propertiesLimits(schema: Schema): Record<string, Limits> | null {
  const result: Record<string, Limits> = {};
  for (const part of [schema, ...(schema.allOf ?? [])]) {
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      const limits = ownLimits(property);
      if (limits !== null) result[name] = limits;
    }
  }
  return Object.keys(result).length > 0 ? result : null;
}

/** The module's text, for the bundled contract's component schemas. */
export function limitsModule(schemas: Record<string, Schema>, banner: string): string {
  const schemaLimits: Record<string, Limits> = {};
  const propertyLimits: Record<string, Record<string, Limits>> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const own = ownLimits(schema);
    if (own !== null) schemaLimits[name] = own;
    const properties = propertiesLimits(schema);
    if (properties !== null) propertyLimits[name] = properties;
  }
  return [
    banner,
    '/** Limits of each component schema itself (an array\'s items, a number\'s bounds). */',
    `export const schemaLimits = ${JSON.stringify(schemaLimits, null, 2)} as const;`,
    '',
    '/** Limits of each component schema\'s properties, by property. */',
    `export const propertyLimits = ${JSON.stringify(propertyLimits, null, 2)} as const;`,
    '',
    '/** The words each value of an enum is shown in (its schema\'s x-enum-words), by schema. */',
    `export const enumWords = ${JSON.stringify(enumWords(schemas), null, 2)} as const;`,
    '',
  ].join('\n');
}

function enumWords(schemas: Record<string, Schema>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(schemas).flatMap(([name, schema]) => (schema['x-enum-words'] ? [[name, schema['x-enum-words']]] : [])),
  );
}
