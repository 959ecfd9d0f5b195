// Temporary: concatenates two versions of a TS module: all of A, then B's top-level statements
// whose names A lacks; imports merged by module specifier.
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
const [a, b, out] = process.argv.slice(2) as [string, string, string];
const parse = (f: string) => ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
const A = parse(a), B = parse(b);
function names(st: ts.Statement): string[] {
  if (ts.isVariableStatement(st)) return st.declarationList.declarations.map((d) => d.name.getText());
  const n = (st as { name?: ts.Node }).name;
  return n ? [n.getText()] : [];
}
const imports = new Map<string, { typeOnly: boolean; specs: Set<string>; def?: string }>();
const addImport = (st: ts.ImportDeclaration, src: ts.SourceFile) => {
  const mod = (st.moduleSpecifier as ts.StringLiteral).text.replace(/\.js$/, '');
  const clause = st.importClause;
  const entry = imports.get(mod) ?? { typeOnly: true, specs: new Set<string>() };
  if (!clause) { imports.set(mod, entry); return; }
  const typeOnly = clause.isTypeOnly;
  if (clause.name) entry.def = clause.name.getText(src);
  const nb = clause.namedBindings;
  if (nb && ts.isNamedImports(nb)) for (const e of nb.elements) entry.specs.add((typeOnly && !e.isTypeOnly ? 'type ' : '') + e.getText(src));
  else if (nb) entry.def = nb.getText(src);
  if (!typeOnly) entry.typeOnly = false;
  imports.set(mod, entry);
};
const aNames = new Set<string>();
const body: string[] = [];
let header = '';
const first = A.statements[0];
if (first) header = A.getFullText().slice(0, first.getFullStart()) + (ts.getLeadingCommentRanges(A.getFullText(), first.getFullStart()) ?? []).map((r) => A.getFullText().slice(r.pos, r.end)).join('\n');
for (const st of A.statements) {
  if (ts.isImportDeclaration(st)) { addImport(st, A); continue; }
  names(st).forEach((n) => aNames.add(n));
  body.push(st.getFullText(A));
}
for (const st of B.statements) {
  if (ts.isImportDeclaration(st)) { addImport(st, B); continue; }
  const ns = names(st);
  if (ns.length > 0 && ns.every((n) => aNames.has(n))) continue;
  body.push(st.getFullText(B));
}
const importLines = [...imports.entries()].map(([mod, e]) => {
  const specs = [...e.specs];
  // a value import wins over a type-only one of the same name
  const clean = specs.filter((s) => !(s.startsWith('type ') && specs.includes(s.slice(5))));
  const parts = [e.def, clean.length ? `{ ${[...new Set(clean)].join(', ')} }` : undefined].filter(Boolean).join(', ');
  return parts ? `import ${e.typeOnly && !e.def ? 'type ' : ''}${e.typeOnly && !e.def ? parts.replace(/type /g, '') : parts} from '${mod}';` : `import '${mod}';`;
});
let text = body.join('');
// header: leading comment of A's first statement (kept once)
const lead = (ts.getLeadingCommentRanges(A.getFullText(), 0) ?? []).map((r) => A.getFullText().slice(r.pos, r.end)).join('\n');
if (lead && text.startsWith(A.statements[0]!.getFullText(A)) && ts.isImportDeclaration(A.statements[0]!)) { /* comment was on an import */ }
writeFileSync(out, (lead ? lead + '\n' : '') + importLines.join('\n') + '\n' + text.replace(/^\s*\n/, '\n') + (text.endsWith('\n') ? '' : '\n'));
void header;
