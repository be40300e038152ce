#!/usr/bin/env node
/**
 * Proves, through the packed tarball, that every type a public signature names can be imported: packs the SDK
 * (after `npm run build`), installs the tarball into a throwaway project the way a merchant does, and walks the
 * published declarations with the TypeScript compiler API. From each export of each package entry
 * (`payments-service-sdk`, `payments-service-sdk/testing`) it follows every type named in a signature: property
 * and method types, parameters, return types, type arguments, constraints, heritage clauses and `typeof`
 * queries, recursively. Each named type declared by the SDK must itself be exported from one of the entries;
 * types from zod, ky, the DOM or Node are the caller's own. Private and protected members are not public and
 * are not followed.
 *
 *   node scripts/public-surface.mjs              build, pack, check
 *   node scripts/public-surface.mjs --no-build   use dist/ as it is (CI builds just before)
 *
 * Prints each type that is named but not exported, with the path that reaches it, and closes with
 * `public-surface: N named types, M not importable`; exits 1 when any is not importable.
 */
import './npm-env.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { packSdk } from './pack.mjs';
import { CI_ARGS, preparePinned } from './pins.mjs';

const root = resolve(import.meta.dirname, '..');
const ts = createRequire(join(root, 'package.json'))('typescript');
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });

const { name, exports: entries } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const specifiers = Object.keys(entries)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));

if (!process.argv.includes('--no-build')) run('npm', ['run', '-s', 'build'], root);
const work = mkdtempSync(join(tmpdir(), 'sdk-public-surface-'));

try {
  const tarball = packSdk(work);
  // The tarball with msw, from the pins (scripts/pins/public-surface).
  const app = preparePinned('public-surface', join(work, 'app'), { 'payments-service-sdk': tarball });
  run('npm', [...CI_ARGS, '--ignore-scripts'], app);

  const main = join(app, 'index.ts');
  writeFileSync(main, specifiers.map((s, i) => `export * as entry${i} from '${s}';\n`).join(''));
  const program = ts.createProgram([main], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  });
  const checker = program.getTypeChecker();
  const sdkDir = `${join(app, 'node_modules', name)}${sep}`;
  const fromSdk = (decl) => decl.getSourceFile().fileName.startsWith(sdkDir);
  const resolveAlias = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  // Everything importable: the exports of every entry, as the symbols they resolve to.
  const exported = new Set();
  const roots = [];
  for (const specifier of specifiers) {
    const resolved = ts.resolveModuleName(
      specifier,
      main,
      program.getCompilerOptions(),
      ts.sys,
      undefined,
      undefined,
      ts.ModuleKind.ESNext,
    );
    const fileName = resolved.resolvedModule?.resolvedFileName;
    const file = fileName && program.getSourceFile(fileName);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`${specifier}: no declarations found in the installed package`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = resolveAlias(symbol);
      exported.add(target);
      roots.push([`${specifier}: ${symbol.name}`, target]);
    }
  }

  const named = new Map(); // symbol -> the first path that reached it
  const missing = new Map();
  const walked = new Set();
  const hidden = (node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some(
      (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
    );

  /** Follows every type named under `node` (a declaration or a type), skipping what a caller cannot reach. */
  function visit(node, path) {
    if (hidden(node) || (node.name && ts.isPrivateIdentifier(node.name))) return;
    let reference;
    if (ts.isTypeReferenceNode(node)) reference = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) reference = node.expression;
    else if (ts.isTypeQueryNode(node)) reference = node.exprName;
    else if (ts.isImportTypeNode(node)) reference = node.qualifier ?? node;
    if (reference) {
      const symbol = checker.getSymbolAtLocation(reference);
      if (symbol) follow(resolveAlias(symbol), `${path} -> ${reference.getText()}`);
    }
    ts.forEachChild(node, (child) => {
      // A member's own name, or a parameter's, is no type; their types are followed through the children.
      if (child === node.name && !ts.isTypeNode(child)) return;
      if (ts.isBlock(child)) return;
      const label = child.name && !ts.isComputedPropertyName(child.name) ? `.${child.name.getText()}` : '';
      visit(child, `${path}${label}`);
    });
  }

  function follow(symbol, path) {
    if (symbol.flags & ts.SymbolFlags.TypeParameter) return;
    const declarations = (symbol.declarations ?? []).filter(fromSdk);
    if (declarations.length === 0) return; // zod's, ky's, the platform's: the caller's own
    if (symbol.flags & (ts.SymbolFlags.Property | ts.SymbolFlags.Method | ts.SymbolFlags.EnumMember)) return;
    if (!named.has(symbol)) named.set(symbol, path);
    if (!exported.has(symbol) && !missing.has(symbol)) missing.set(symbol, path);
    walk(symbol, path);
  }

  function walk(symbol, path) {
    if (walked.has(symbol)) return;
    walked.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      if (!fromSdk(declaration) || ts.isSourceFile(declaration) || ts.isModuleDeclaration(declaration))
        continue;
      visit(declaration, path);
    }
  }

  for (const [path, symbol] of roots) walk(symbol, path);

  for (const [symbol, path] of missing) console.log(`not importable: ${symbol.name}\n  named by ${path}`);
  console.log(
    `public-surface: ${named.size} named types, ${missing.size} not importable (entries: ${specifiers.join(', ')})`,
  );
  process.exitCode = missing.size === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
