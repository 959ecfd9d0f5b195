// How many lines of its own each function has: the lines it spans, less those of the functions
// nested in it, counting only lines that hold code (blank and comment-only lines are free).
// A function read in one screen is the aim (tests/code/function-length.test.ts).
import ts from 'typescript';

export interface FunctionLength {
  /** 1-based line of the function's first token. */
  line: number;
  name: string;
  ownLines: number;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader looks for: its own, or that of the variable or property holding it. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (ts.isCallExpression(parent)) return `${parent.expression.getText().slice(0, 40)}(…) callback`;
  return '(anonymous)';
}

/** Lines (0-based) on which some token of code lies; comments and JSDoc are trivia, not tokens. */
function codeLines(source: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length === 0) {
      if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let line = first; line <= last; line++) lines.add(line);
      return;
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return lines;
}

/** Each function of the source with its own line count, in source order. */
export function functionLengths(fileName: string, text: string): FunctionLength[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const code = codeLines(source);
  // Each line belongs to the innermost function spanning it: a nested function's lines are its own.
  const owner = new Map<number, ts.FunctionLikeDeclaration>();
  const functions: ts.FunctionLikeDeclaration[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      functions.push(node);
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let line = first; line <= last; line++) owner.set(line, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const counts = new Map<ts.Node, number>();
  for (const [line, fn] of owner) if (code.has(line)) counts.set(fn, (counts.get(fn) ?? 0) + 1);
  return functions.map((fn) => ({
    line: source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1,
    name: functionName(fn),
    ownLines: counts.get(fn) ?? 0,
  }));
}
