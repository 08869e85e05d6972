import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
const files = [];
const walk = (d) => { for (const e of readdirSync(d)) { const p = join(d, e); if (e === 'node_modules') continue; if (statSync(p).isDirectory()) walk(p); else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) files.push(p); } };
for (const d of ['shared', 'functions', 'infra']) walk(d);
let n = 0;
for (const f of files) {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isNonNullExpression(node) || (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.NeverKeyword)) {
      n++; const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
      console.log(`${f}:${line + 1}: ${ts.isNonNullExpression(node) ? '!' : 'as never'} ${node.getText().slice(0, 90).replace(/\n/g, ' ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
console.error('total', n);
