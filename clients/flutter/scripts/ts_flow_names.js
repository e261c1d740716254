// Prints, as JSON, the public TypeScript flow event and screen types of the React Native package and their variants:
// {"ChiaEvent": ["cta", ...], "ConnectScreen": ["ready", ...], ...}. Read with the TypeScript compiler's type checker,
// from src/index.ts's exports when the package has one, else from the exports of src/core/*.ts. A type that is not a
// union of object types discriminated by a string literal (`type` for events, `content` for screens) maps to [].
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const root = path.resolve(process.argv[2] || path.join(__dirname, '../../react-native/src'));
const index = path.join(root, 'index.ts');
const roots = fs.existsSync(index)
  ? [index]
  : fs.readdirSync(path.join(root, 'core')).filter((f) => f.endsWith('.ts')).map((f) => path.join(root, 'core', f));
const program = ts.createProgram(roots, {
  target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, strict: true, noEmit: true, skipLibCheck: true,
  jsx: ts.JsxEmit.React, types: [],
});
const checker = program.getTypeChecker();
const wanted = /^(Chia|Verification|Connect)(Event|Screen)$/;
const found = {};

function literals(type) {
  if (type.isUnion()) return type.types.flatMap(literals);
  return type.isStringLiteral() ? [type.value] : [];
}

function variants(symbol, kind) {
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const members = type.isUnion() ? type.types : [type];
  const discriminant = kind === 'Event' ? 'type' : 'content';
  const values = [];
  for (const member of members) {
    const property = member.getProperty(discriminant);
    if (!property) continue;
    for (const value of literals(checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration || symbol.declarations[0]))) {
      if (!values.includes(value)) values.push(value);
    }
  }
  return values;
}

for (const file of roots) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) continue;
  for (let symbol of checker.getExportsOfModule(moduleSymbol)) {
    const name = symbol.getName();
    const match = wanted.exec(name);
    if (!match) continue;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    if (!(symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface))) continue;
    found[name] = variants(symbol, match[2]);
  }
}
process.stdout.write(JSON.stringify({ source: fs.existsSync(index) ? 'src/index.ts' : 'src/core/*.ts', types: found }) + '\n');
