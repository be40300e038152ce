/**
 * The examples as they ship: each `examples/*.ts` (but the vitest file) beside its compiled `.js`, so that
 * `node node_modules/payments-service-sdk/examples/quickstart.js` runs (Node strips no types under
 * node_modules). Written when the package is packed (scripts/manifest.mjs, before `npm pack`) and removed after,
 * so the repository holds only the sources and its tests import those. Types are erased, nothing else changes:
 * comments stay, and `payments-service-sdk` stays an import of the installed package.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The examples that compile to a runnable `.js`: every `.ts` but tests. */
export const exampleSources = (root) =>
  readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** Writes `examples/<name>.js` beside each source; returns the files written. */
export function compileExamples(root) {
  return exampleSources(root).map((file) => {
    const source = readFileSync(join(root, 'examples', file), 'utf8');
    const { outputText, diagnostics } = ts.transpileModule(source, {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    if (diagnostics?.length) {
      const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      throw new Error(`examples/${file}: ${text.join('; ')}`);
    }
    const out = file.replace(/\.ts$/, '.js');
    const header = `// Compiled from ${file} when the package was packed: run it with node.\n`;
    writeFileSync(join(root, 'examples', out), header + outputText);
    return `examples/${out}`;
  });
}

/** Removes what `compileExamples` wrote. */
export function removeCompiledExamples(root) {
  for (const file of exampleSources(root)) {
    rmSync(join(root, 'examples', file.replace(/\.ts$/, '.js')), { force: true });
  }
}
